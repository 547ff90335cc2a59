//! The definition files a server was started with (`serve --definition
//! FILE`): the only files a client's request may open as a game's
//! definition. A client names one by its file name, which is looked up
//! here and never joined onto a path, so `file=/etc/shadow` or
//! `file=../x` is simply not one of them: refused before anything is
//! opened, with no word on whether such a path exists.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::request::{Failure, printable};
use bitsolve::error::{Error, Result, quoted};
use bitsolve::games::Ksolve;
use bitsolve::games::ksolve::definition::Metric;

/// Served definitions by the name clients give them.
#[derive(Default)]
pub struct Definitions {
    by_name: BTreeMap<String, PathBuf>,
}

impl Definitions {
    /// The files named on the command line, each read and checked now
    /// (a file that does not open as a puzzle stops the server before it
    /// listens); two files of one name are refused, as a client could not
    /// tell them apart.
    pub fn open(files: &[PathBuf]) -> Result<Definitions> {
        let mut by_name = BTreeMap::new();
        for file in files {
            let path = file.canonicalize().map_err(|e| {
                Error::InvalidParameter(format!(
                    "--definition {}: {e}",
                    quoted(&file.display().to_string())
                ))
            })?;
            if !path.is_file() {
                return Err(Error::InvalidParameter(format!(
                    "--definition {} is not a file",
                    quoted(&file.display().to_string())
                )));
            }
            Ksolve::from_file(&path, Metric::Powers)?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if by_name.insert(name.clone(), path).is_some() {
                return Err(Error::InvalidParameter(format!(
                    "two --definition files are named {}: clients name them by file name",
                    quoted(&name)
                )));
            }
        }
        Ok(Definitions { by_name })
    }

    /// The names clients may give, in order.
    pub fn names(&self) -> Vec<&str> {
        self.by_name.keys().map(String::as_str).collect()
    }

    /// The path of the served definition `name`; a 400 for any other
    /// name, quoting only what the client sent.
    pub fn path(&self, option: &str, name: &str) -> std::result::Result<String, Failure> {
        match self.by_name.get(name) {
            Some(path) => Ok(path.display().to_string()),
            None if self.by_name.is_empty() => Err(Failure::bad_request(format!(
                "{option}='{}' is not a definition this server serves: it was started with none (bitsolve serve --definition FILE)",
                printable(name)
            ))),
            None => Err(Failure::bad_request(format!(
                "{option}='{}' is not a definition this server serves (it serves: {})",
                printable(name),
                self.names().join(", ")
            ))),
        }
    }
}
