//! lichess's reasons, as pegboard's own: a declined challenge's reason key
//! and the words of lichess's refusals (always English, whatever the
//! player's language) read into the reasons every language file words
//! (the game's `REASONS`, which hold these). Words pegboard does not know
//! stay as lichess wrote them, and are told as lichess's own.

/// lichess's decline reason keys (lila's modules/challenge
/// `DeclineReason`, in lower case), each with the reason it is.
pub const DECLINES: [(&str, &str); 11] = [
    ("generic", "generic"),
    ("later", "later"),
    ("toofast", "too_fast"),
    ("tooslow", "too_slow"),
    ("timecontrol", "time_control"),
    ("rated", "rated"),
    ("casual", "casual"),
    ("standard", "standard"),
    ("variant", "variant"),
    ("nobot", "no_bot"),
    ("onlybot", "only_bot"),
];

/// The reasons [`of_error`] gives.
pub const REFUSALS: [&str; 8] = [
    "board_time_control",
    "too_many_games",
    "not_your_turn",
    "illegal_move",
    "no_claim",
    "no_claim_draw",
    "no_game",
    "no_user",
];

/// The reason a challenge was declined, from lichess's `declineReasonKey`.
pub fn of_decline(key: Option<&str>) -> Option<&'static str> {
    let key = key?.trim().to_ascii_lowercase();
    DECLINES
        .iter()
        .find(|(lila, _)| *lila == key)
        .map(|(_, reason)| *reason)
}

/// The reason behind lichess's words `error` (the `error` of its 400 and
/// 404 answers: app/controllers PlayApi, Challenge, Setup and
/// modules/bot BoardApi), where pegboard knows them.
pub fn of_error(error: &str) -> Option<&'static str> {
    let e = error.trim().trim_end_matches('.').to_ascii_lowercase();
    let reason =
        if e == "invalid time control" || e == "this game cannot be played with the board api" {
            "board_time_control"
        } else if e.starts_with("already playing too many games") {
            "too_many_games"
        } else if e == "not your turn, or game already over" {
            "not_your_turn"
        } else if e.starts_with("invalid uci") || e.contains("cannot move to") {
            "illegal_move"
        } else if e == "you cannot claim the win on this game" {
            "no_claim"
        } else if e == "you cannot claim draw on this game" {
            "no_claim_draw"
        } else if e == "no such game" || e == "not your game" {
            "no_game"
        } else if e.starts_with("no such user") {
            "no_user"
        } else {
            return None;
        };
    Some(reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decline_key_of_lichess_is_a_reason() {
        // lila's DeclineReason keys, as its challenges write them.
        for key in [
            "generic",
            "later",
            "tooFast",
            "tooSlow",
            "timeControl",
            "rated",
            "casual",
            "standard",
            "variant",
            "noBot",
            "onlyBot",
        ] {
            let reason = of_decline(Some(key));
            assert!(reason.is_some(), "{key}");
            assert_eq!(reason.map(|r| r.replace('_', "")), Some(key.to_lowercase()));
        }
        assert_eq!(of_decline(Some("something new")), None);
        assert_eq!(of_decline(None), None);
    }

    #[test]
    fn lichess_words_are_read_into_reasons_and_others_left() {
        assert_eq!(of_error("Invalid time control"), Some("board_time_control"));
        assert_eq!(
            of_error("This game cannot be played with the Board API."),
            Some("board_time_control")
        );
        assert_eq!(
            of_error("Not your turn, or game already over"),
            Some("not_your_turn")
        );
        assert_eq!(of_error("Invalid UCI: e2e9"), Some("illegal_move"));
        assert_eq!(of_error("No such user: nobody1"), Some("no_user"));
        assert_eq!(of_error("Not your game"), Some("no_game"));
        assert_eq!(
            of_error("You cannot claim draw on this game"),
            Some("no_claim_draw")
        );
        assert_eq!(of_error("Bert does not accept challenges"), None);
    }
}
