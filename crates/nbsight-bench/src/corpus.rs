//! Finding the notebooks of a corpus and preparing them for measurement: the file
//! bytes are read into memory and the Python cell sources extracted once, so
//! neither file I/O nor source extraction is part of any timing.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use nbsight_notebook::load_ipynb_bytes;

/// A notebook ready to be measured.
#[derive(Debug)]
pub struct Prepared {
    pub path: PathBuf,
    /// The whole `.ipynb` file.
    pub bytes: Vec<u8>,
    /// The Python text of each Python code cell, as `analyze_notebook` parses it.
    pub sources: Vec<String>,
    pub code_cells: usize,
}

impl Prepared {
    /// Reads and loads the notebook once; an error means it is skipped.
    pub fn read(path: &Path) -> Result<Prepared> {
        let bytes = fs::read(path).context("cannot read file")?;
        let notebook = load_ipynb_bytes(path, &bytes)?;
        let sources = notebook
            .cells
            .iter()
            .filter_map(|cell| cell.python_source())
            .map(|text| text.into_owned())
            .collect();
        Ok(Prepared {
            path: path.to_path_buf(),
            code_cells: notebook.code_cells().count(),
            bytes,
            sources,
        })
    }

    /// Bytes of Python source parsed per run.
    pub fn source_bytes(&self) -> usize {
        self.sources.iter().map(String::len).sum()
    }
}
