//! A problem at a key of the configuration file, as a wing's own checks
//! find it: the key's path (tables, then the key; a number picks one of
//! an array of tables) and what is wrong. The configuration turns it into
//! an error with the file and the line.

/// A problem at a configuration key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyProblem {
    pub path: Vec<String>,
    pub message: String,
}

impl KeyProblem {
    /// A problem at `path` (`["clock", "pgn_control"]`).
    pub fn at<S: AsRef<str>>(path: &[S], message: String) -> KeyProblem {
        KeyProblem {
            path: path.iter().map(|s| s.as_ref().to_string()).collect(),
            message,
        }
    }

    /// The same problem inside an array of tables' entry: `prefix` comes
    /// before the path, `note` before the message.
    pub fn within(mut self, prefix: &[&str], note: &str) -> KeyProblem {
        let mut path: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
        path.append(&mut self.path);
        self.path = path;
        self.message = format!("{note}{}", self.message);
        self
    }
}
