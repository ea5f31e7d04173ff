"""The tool contracts (read_file, write_file, patch, search_files) and their per-task state."""
