//! Quoting user text in error messages.

/// How many characters of a user's text an error message quotes.
pub const QUOTED_CHARS: usize = 40;

/// `text` as an error message quotes it: its first [`QUOTED_CHARS`]
/// characters, and `…` if there was more. A 20 MB value in a file is
/// named, not echoed.
pub fn short(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_and_marked() {
        assert_eq!(short("e2"), "e2");
        let long = "ä".repeat(1_000_000);
        let quoted = short(&long);
        assert_eq!(quoted.chars().count(), QUOTED_CHARS + 1);
        assert!(quoted.ends_with('…'));
    }
}
