"""The window's panels: navigator, grid, conventions, summary, audit log."""
