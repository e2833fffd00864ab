//! Where a key stands in the configuration text, for errors that name the
//! key and its line.

use std::fmt;

/// A configuration that cannot be used: the file, the line (when the
/// trouble is at a key), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The configuration text, read once more with positions kept, to find
/// the line of a key.
pub struct Locator<'a> {
    file: &'a str,
    text: &'a str,
    doc: Option<toml_edit::Document<&'a str>>,
}

/// The 1-based line of a byte offset.
fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

impl<'a> Locator<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Locator<'a> {
        Locator {
            file,
            text,
            doc: toml_edit::Document::parse(text).ok(),
        }
    }

    /// The line of the key at `path` (tables, then the key; a number
    /// picks one of an array of tables, `["buttons", "key", "2", "pin"]`).
    /// Where the key is not written, the line of the nearest table that is.
    pub fn line<S: AsRef<str>>(&self, path: &[S]) -> Option<usize> {
        let doc = self.doc.as_ref()?;
        let mut table: &dyn toml_edit::TableLike = doc.as_table();
        let mut found = None;
        let mut i = 0;
        while i < path.len() {
            let Some((key, item)) = table.get_key_value(path[i].as_ref()) else {
                break;
            };
            found = key.span().or_else(|| item.span()).or(found);
            if let Some(array) = item.as_array_of_tables() {
                let n: usize = path.get(i + 1)?.as_ref().parse().ok()?;
                let t = array.get(n)?;
                found = t.span().or(found);
                table = t;
                i += 2;
                continue;
            }
            match item.as_table_like() {
                Some(t) => table = t,
                None => break,
            }
            i += 1;
        }
        found.map(|span| line_at(self.text, span.start))
    }

    /// An error at the key `path`.
    pub fn error<S: AsRef<str>>(&self, path: &[S], message: String) -> ConfigError {
        ConfigError {
            file: self.file.to_string(),
            line: self.line(path),
            message,
        }
    }

    /// A TOML reader's error, as `[table] key: what is wrong`, at its line.
    /// An error about a whole table whose message begins with one of the
    /// table's keys ("h1 is at [3, 3] …") is put at that key's line.
    pub fn toml_error(&self, e: &toml::de::Error) -> ConfigError {
        let message = e.message().trim_end().to_string();
        let mut line = e.span().map(|span| line_at(self.text, span.start));
        if let Some(n) = line
            && let Some(header) = self.text.lines().nth(n - 1)
            && header.trim_start().starts_with('[')
            && let Some(first) = message.split_whitespace().next()
        {
            let table = header.trim().trim_matches(|c| c == '[' || c == ']');
            let mut path: Vec<&str> = table.split('.').map(str::trim).collect();
            path.push(first);
            if let Some(at_key) = self.line(&path).filter(|&k| k != n) {
                line = Some(at_key);
            }
        }
        let at = line.and_then(|n| {
            let lines: Vec<&str> = self.text.lines().collect();
            let here = lines.get(n - 1)?;
            let key = here.split_once('=').map(|(k, _)| k.trim())?;
            let table = lines[..n - 1]
                .iter()
                .rev()
                .map(|l| l.trim())
                .find(|l| l.starts_with('['))
                .map(|l| format!("{} ", crate::text::quote::short(l)))
                .unwrap_or_default();
            Some(format!("{table}{}: ", crate::text::quote::short(key)))
        });
        ConfigError {
            file: self.file.to_string(),
            line,
            message: format!("{}{message}", at.unwrap_or_default()),
        }
    }
}
