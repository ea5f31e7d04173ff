"""Document extraction: docx, xlsx, pdf and ipynb files turned into readable text."""
