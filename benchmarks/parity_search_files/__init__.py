"""search_files parity: the same generated calls through FileTools on the in-process engine and
on the reference rg 15.1, compared as JSON text (``python -m benchmarks.parity_search_files``).
"""
