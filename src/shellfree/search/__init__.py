"""The ripgrep engine: walk → ignore/glob filter → decode → match → print.

Each stage is a module with one job; the walker (:mod:`shellfree.search.walk`) decides which files
ripgrep 15.1 would look at. Nothing in this package imports from :mod:`shellfree.engine`.
"""
