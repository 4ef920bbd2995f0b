//! Notebook documents.
