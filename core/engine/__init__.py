"""The engine: a document evaluated under its conventions (DCG, ideal DCG,
NDCG per query and cutoff), and re-evaluation of the queries an edit touched."""
