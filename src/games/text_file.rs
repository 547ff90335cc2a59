//! Reading the text files users hand the program (boards, `.pg` games,
//! positions) with a bound on their size.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Far more than any board, game description or position takes; a path to
/// something endless (`/dev/zero`) is refused instead of filling memory.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;

/// The UTF-8 text of the file at `path`, if it is at most [`MAX_TEXT_BYTES`].
pub fn read_text(path: &Path) -> io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("more than {} MiB of text", MAX_TEXT_BYTES >> 20),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endless_and_binary_files_are_refused() {
        let endless = read_text(Path::new("/dev/zero")).unwrap_err();
        assert!(
            endless.to_string().contains("more than 16 MiB"),
            "{endless}"
        );
        assert_eq!(read_text(Path::new("/dev/null")).unwrap(), "");
        assert!(read_text(Path::new("/")).is_err());
    }
}
