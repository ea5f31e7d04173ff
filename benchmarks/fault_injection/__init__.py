"""Fault injection for write_file: a writer SIGKILLed at random moments never leaves a torn file."""
