//! What is written and what is spoken: a language file's `[spoken]`,
//! `[phonemes]` and `[written]` tables.
//!
//! The words of a language file are written as the Laws print them, in
//! ASCII where the Laws do ("Koenig", "Laeufer"); that is what the log
//! shows. A synthesizer reads them as spelled, and some come out wrong
//! ("Ko-e-nich"). The `[spoken]` table says how such a word is to be said
//! ("König"); it is applied only on the way to a synthesizer
//! (speech-dispatcher, and the clip maker that makes the recorded clips
//! with espeak-ng). The `[written]` table says how it is written for a
//! reader ("Läufer"); it is applied to everything a page shows (the
//! mirror's and the console's words, moves and status lines).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;

/// Written word → spoken form, for whole words, matched without regard to
/// case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "BTreeMap<String, String>")]
pub struct Pronunciation {
    /// Keys in lowercase.
    words: BTreeMap<String, String>,
}

impl From<BTreeMap<String, String>> for Pronunciation {
    fn from(table: BTreeMap<String, String>) -> Pronunciation {
        Pronunciation {
            words: table
                .into_iter()
                .map(|(written, spoken)| (written.to_lowercase(), spoken))
                .collect(),
        }
    }
}

impl Pronunciation {
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The spoken form of one word, if the table has one.
    pub fn word(&self, written: &str) -> Option<&str> {
        self.words.get(&written.to_lowercase()).map(String::as_str)
    }

    /// `text` as it is to be spoken: every whole word the table names is
    /// replaced by its spoken form; everything else stays as it is.
    pub fn apply<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.words.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 8);
        let mut changed = false;
        let mut rest = text;
        while !rest.is_empty() {
            let word_len = rest
                .find(|c: char| !c.is_alphanumeric())
                .unwrap_or(rest.len());
            if word_len == 0 {
                let c = rest.chars().next().map_or(1, char::len_utf8);
                out.push_str(&rest[..c]);
                rest = &rest[c..];
                continue;
            }
            let (word, tail) = rest.split_at(word_len);
            match self.word(word) {
                Some(spoken) => {
                    out.push_str(spoken);
                    changed = true;
                }
                None => out.push_str(word),
            }
            rest = tail;
        }
        if changed {
            Cow::Owned(out)
        } else {
            Cow::Borrowed(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(pairs: &[(&str, &str)]) -> Pronunciation {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<BTreeMap<_, _>>()
            .into()
    }

    #[test]
    fn whole_words_are_replaced_whatever_their_case() {
        let p = table(&[("Koenig", "König"), ("Rochade", "Roschade")]);
        assert_eq!(p.apply("Koenig Gustav eins"), "König Gustav eins");
        assert_eq!(p.apply("Kurze Rochade, Schach."), "Kurze Roschade, Schach.");
        assert_eq!(p.apply("koenig"), "König");
        // Part of a longer word is not a word.
        assert_eq!(p.apply("Koenigin Rochaden"), "Koenigin Rochaden");
        assert!(matches!(p.apply("Dame Eva fünf"), Cow::Borrowed(_)));
        assert_eq!(p.apply(""), "");
    }
}
