"""The command line (``ndcg-worksheet evaluate|export|compare``): Qt-free, an
adapter over ``core`` beside the window."""
