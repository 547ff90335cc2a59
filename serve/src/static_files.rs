//! The explorer's page, script and style, embedded at build time (no build
//! step of their own): the binary serves them from memory, so no request
//! path ever reaches the file system.

pub struct StaticFile {
    pub content_type: &'static str,
    pub body: &'static str,
}

const FILES: [(&str, StaticFile); 3] = [
    (
        "/",
        StaticFile {
            content_type: "text/html; charset=utf-8",
            body: include_str!("../../web/explorer/index.html"),
        },
    ),
    (
        "/static/app.js",
        StaticFile {
            content_type: "text/javascript; charset=utf-8",
            body: include_str!("../../web/explorer/app.js"),
        },
    ),
    (
        "/static/style.css",
        StaticFile {
            content_type: "text/css; charset=utf-8",
            body: include_str!("../../web/explorer/style.css"),
        },
    ),
];

/// The embedded file served at exactly `path`.
pub fn find(path: &str) -> Option<&'static StaticFile> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES
        .iter()
        .find(|(served, _)| *served == path)
        .map(|(_, file)| file)
}
