//! The one place where the game's facts become words: every event the
//! core concludes passes here before any output (voices, mirror, console,
//! printed line) sees it.
//!
//! The words are in the configured language, or, from a game's `ready`
//! on, in the language the player chose for it in the spoken menu.

use crate::core::said::Said;
use crate::core::{Event, Stamped};

use super::phrases::Phrasebook;

/// Puts events in words, following the language of each game.
#[derive(Debug, Clone)]
pub struct Narrator {
    /// The words the configuration gives.
    configured: Phrasebook,
    /// The configured language's name.
    language: String,
    /// The language the words are in now.
    now: String,
    /// The words of another language, chosen in the menu for this game.
    chosen: Option<Phrasebook>,
}

impl Narrator {
    /// A narrator that speaks `words`, the words of the configured
    /// `language`.
    pub fn new(words: Phrasebook, language: &str) -> Narrator {
        Narrator {
            configured: words,
            language: language.to_string(),
            now: language.to_string(),
            chosen: None,
        }
    }

    /// The words the game is said in now.
    pub fn words(&self) -> &Phrasebook {
        self.chosen.as_ref().unwrap_or(&self.configured)
    }

    /// Makes the words of what `events` say as facts, in order: a `ready`
    /// turns to its game's language first. Words already made stay.
    pub fn tell(&mut self, events: &mut [Stamped]) {
        for e in events {
            if let Event::Ready { language, .. } = &e.event {
                self.follow(language);
            }
            if let Some(said) = e.event.said_mut()
                && !said.is_words()
            {
                *said = Said::Text(self.words().in_words(said));
            }
        }
    }

    /// Turns to `language`: the configured words for the configured
    /// language (a language file named by its path included), else the
    /// built-in language of that name, else the configured words.
    fn follow(&mut self, language: &str) {
        // Each game's `ready` comes by more than once (told as the game
        // is fed, and again before the outputs): a language file is read
        // only when the language changes.
        if language == self.now {
            return;
        }
        self.now = language.to_string();
        self.chosen = if language == self.language {
            None
        } else {
            self.configured.in_language(language)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::announce::Vocabulary;
    use crate::core::notices::Notice;

    fn said(notice: Notice) -> Stamped {
        Stamped {
            t: 0,
            event: Event::Say {
                text: Said::Notice(notice),
            },
        }
    }

    fn ready(language: &str) -> Stamped {
        Stamped {
            t: 0,
            event: Event::Ready {
                fen: String::new(),
                variant: "standard",
                say: None,
                language: language.into(),
            },
        }
    }

    #[test]
    fn each_game_is_said_in_its_own_language_from_its_ready_on() {
        let fide = Phrasebook::new(Vocabulary::fide());
        let english = fide.in_language("en").expect("English is built in");
        let mut n = Narrator::new(fide.clone(), "fide");
        let mut events = vec![
            said(Notice::NoClock),
            ready("en"),
            said(Notice::NoClock),
            ready("fide"),
            said(Notice::NoClock),
            ready("no-such-language"),
            said(Notice::NoClock),
        ];
        n.tell(&mut events);
        let words: Vec<&str> = events.iter().filter_map(|e| e.event.spoken()).collect();
        let german = fide.notice(Notice::NoClock);
        let english = english.notice(Notice::NoClock);
        assert_ne!(german, english);
        assert_eq!(words, [&german, &english, &german, &german]);
        // Told twice, the words stay as first made.
        let mut again = events.clone();
        n.tell(&mut again);
        assert_eq!(again, events);
    }
}
