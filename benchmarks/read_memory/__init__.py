"""read_file on a 200 MB text file: peak memory and time of one page, each in a fresh process."""
