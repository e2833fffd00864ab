//! A game played online: the server starts it (the seats, the clock and
//! the players follow), its clocks set pegboard's, and it says when the
//! game ended. pegboard's own clock never flags a player in an online
//! game (see `arbiter`): only the server's `outoftime` ends it.

use shakmaty::{Color, Position as _};

use super::Controller;
use crate::core::clock::IncrementTiming;
use crate::core::event::{ClockCause, Event, Side, Stamped};
use crate::core::game::{Ending, Game};
use crate::core::input::{Input, MenuStep};
use crate::core::laws::Reason;
use crate::core::notices::{OnlineNotice, Rematch};
use crate::core::online::{Finish, OnlineGame, ServerNotice};
use crate::core::said::Said;
use crate::core::settings::ClockStart;

impl Controller {
    /// The online game this is, once the server started it.
    pub fn online(&self) -> Option<&OnlineGame> {
        self.online.as_ref()
    }

    /// The server started `game`: before the first move of a game not yet
    /// online, the seats and the clock become the server's (the blind
    /// player moves on his board in the colour the server gave him, the
    /// opponent's moves come from the server), and the player hears whom
    /// he plays. Anything else is the same game told again (a
    /// reconnection) and changes nothing.
    pub(super) fn go_online(&mut self, t: u64, game: OnlineGame, out: &mut Vec<Stamped>) {
        if self.online.is_some() || self.game.ply() > 0 || self.game.is_over() {
            return;
        }
        let mut settings = self.settings.clone();
        settings.seats = game.seats(&settings.seats);
        settings.clock.control = game.control();
        // lichess times neither player's first move.
        settings.clock.start = ClockStart::FirstMoves;
        // …and gives the increment after each move.
        settings.clock.increment = IncrementTiming::After;
        // The game starts from the server's start: a Chess960 position,
        // a set position, or the standard one (after a game from
        // another).
        let Ok((pos, mode)) = game.start().position() else {
            return;
        };
        let moved = *self.game.start_position() != pos || self.game.castling_mode() != mode;
        let start = if moved {
            Game::new(pos, mode).with_laws(self.game.laws())
        } else {
            self.game.clone()
        };
        let names: Vec<String> = self.board_names().map(str::to_string).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let raws: Vec<_> = (0..self.boards.len()).map(|i| self.raw(i)).collect();
        let mut next = Controller::with_game(start, settings, &names);
        next.chosen = self.chosen.clone();
        next.next_start = self.next_start.clone();
        next.home_start = self.home_start.clone().or_else(|| {
            moved.then(|| {
                (
                    self.game.start_position().clone(),
                    self.game.castling_mode(),
                )
            })
        });
        if moved {
            // Another start: every reader begins again from it.
            out.push(next.ready(t));
        }
        for (i, raw) in raws.into_iter().enumerate() {
            next.scan(t, i, raw, out);
        }
        let say = Said::OnlineGame(Box::new(game.clone()));
        next.online = Some(game.clone());
        *self = next;
        out.push(Stamped {
            t,
            event: Event::OnlineGame { game, say },
        });
        if let Some(clock) = &self.clock {
            let face = clock.face(t);
            out.push(Stamped {
                t,
                event: Event::clock(ClockCause::Set, &face),
            });
        }
    }

    /// The games under way the player may take up: said, the first of
    /// them with it; the menu's keys then choose (`choose_online`). Not
    /// while a game is played here.
    pub(super) fn online_games(
        &mut self,
        t: u64,
        games: Vec<crate::core::online::OnlineChoice>,
        out: &mut Vec<Stamped>,
    ) {
        if self.online.is_some() || games.is_empty() {
            return;
        }
        let first = self.online_item(&games, 0);
        let say = Said::OnlineGames {
            count: games.len(),
            first: Box::new(first),
        };
        self.online_choice = Some((games.clone(), 0));
        out.push(Stamped {
            t,
            event: Event::OnlineGames { games, say },
        });
    }

    /// Item `at` of `games` (a new game after the last), as said.
    fn online_item(&self, games: &[crate::core::online::OnlineChoice], at: usize) -> Said {
        let game = games.get(at);
        Said::OnlineGameItem {
            number: at + 1,
            name: game.map(|g| g.opponent.clone()),
            my_turn: game.is_some_and(|g| g.my_turn),
        }
    }

    /// A menu key while the player chooses a game under way: `next` and
    /// `back` go through them (a new game the last), `select` chooses.
    pub(super) fn choose_online(&mut self, t: u64, step: MenuStep, out: &mut Vec<Stamped>) {
        let Some((games, at)) = self.online_choice.take() else {
            return;
        };
        let items = games.len() + 1;
        let at = match step {
            MenuStep::Next => (at + 1) % items,
            MenuStep::Back => (at + items - 1) % items,
            MenuStep::Open => at,
            MenuStep::Select => {
                let item = self.online_item(&games, at);
                out.push(Stamped {
                    t,
                    event: Event::OnlineChosen {
                        game: games.get(at).map(|g| g.id.clone()),
                        say: Said::OnlineGameChosen(Box::new(item)),
                    },
                });
                return;
            }
        };
        let say = self.online_item(&games, at);
        self.online_choice = Some((games, at));
        out.push(Stamped {
            t,
            event: Event::Menu { say },
        });
    }

    /// The server's clocks: they set pegboard's, quietly.
    pub(super) fn online_clock(
        &mut self,
        t: u64,
        white_ms: u64,
        black_ms: u64,
        out: &mut Vec<Stamped>,
    ) {
        if self.online.is_none() || self.game.is_over() || self.clock.is_none() {
            return;
        }
        // The server's times count the last move made, its increment
        // given: they wait for pegboard's press for that move (when it is
        // announced), so that the press does not add it again.
        self.server_clock = Some((self.game.ply(), white_ms, black_ms));
        self.apply_server_clock(t, out);
    }

    /// The server's last reading set on the clock, once the moves it
    /// counts are all pressed here.
    pub(super) fn apply_server_clock(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let Some((ply, white_ms, black_ms)) = self.server_clock else {
            return;
        };
        if self.announced < ply || self.game.is_over() {
            return;
        }
        self.server_clock = None;
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        clock.set_time(t, Color::White, white_ms);
        clock.set_time(t, Color::Black, black_ms);
        self.clock_event(t, ClockCause::Set, out);
    }

    /// The server says the game ended: the ending it names, unless the
    /// game already ended here (a mate seen on the board); an aborted game
    /// has no result and is finished with.
    pub(super) fn online_end(
        &mut self,
        t: u64,
        status: &str,
        winner: Option<Color>,
        out: &mut Vec<Stamped>,
    ) {
        if self.online.is_none() || self.game.is_over() {
            return;
        }
        match Finish::of(status, winner) {
            Some(Finish::Over {
                outcome,
                reason,
                by,
            }) => {
                let reason = if status == "draw" {
                    self.online_draw_reason()
                } else {
                    reason
                };
                // A draw claimed when one left names him (lichess's
                // `timeout` without a winner says not who): the opponent
                // when he was told gone, else the player (pegboard's own
                // connection was lost, and the opponent claimed it).
                let by = match (reason, by, self.online.as_ref()) {
                    (Reason::Abandoned, None, Some(o)) if self.opponent_gone.is_some() => {
                        Some(!o.color)
                    }
                    (Reason::Abandoned, None, Some(o)) => Some(o.color),
                    _ => by,
                };
                let ending = Ending {
                    outcome,
                    reason,
                    by,
                };
                if let Some(ending) = self.game.conclude(ending) {
                    self.game_over(t, ending, out);
                }
            }
            Some(Finish::Aborted) => {
                self.say(t, OnlineNotice::Aborted, out);
                self.new_game(t, out);
            }
            None => {}
        }
    }

    /// Which draw the server's `draw` is: lichess gives that one status
    /// for an agreement, a repetition claimed, the 50 moves and too little
    /// material; the game here says which held, else the server's draw
    /// is told as the server's.
    fn online_draw_reason(&self) -> Reason {
        let pos = self.game.position();
        if self.game.draw_offer().is_some() {
            Reason::Agreement
        } else if self.game.repetitions() >= 3 {
            Reason::ThreefoldRepetition
        } else if pos.halfmoves() >= 100 {
            Reason::FiftyMoves
        } else if pos.is_insufficient_material() {
            Reason::InsufficientMaterial
        } else {
            Reason::Server
        }
    }

    /// What the server said that the player is to hear: told.
    pub(super) fn online_notice(&mut self, t: u64, notice: &ServerNotice, out: &mut Vec<Stamped>) {
        let seconds = match notice {
            ServerNotice::FirstMove { seconds } => Some(u64::from(*seconds)),
            _ => None,
        };
        out.push(Stamped {
            t,
            event: Event::OnlineNotice {
                notice: notice.name(),
                seconds,
                say: Said::OnlineServerNotice(notice.clone()),
            },
        });
    }

    /// The connection to the server lost or back: the player hears it.
    pub(super) fn online_link(&mut self, t: u64, back: bool, out: &mut Vec<Stamped>) {
        let (connection, notice) = if back {
            ("back", OnlineNotice::Back)
        } else {
            ("lost", OnlineNotice::Lost)
        };
        out.push(Stamped {
            t,
            event: Event::Online {
                connection,
                say: notice.into(),
            },
        });
    }
}

impl Controller {
    /// The player's inputs that, online, ask the server: a takeback (his
    /// `takeback` key: asked, or the opponent's request agreed to) or the
    /// opponent's request declined (his decline key), the win or a draw
    /// claimed when the opponent left (his flag claim, his draw claim), a
    /// resignation before both have moved (lichess aborts such a game),
    /// and after the game a rematch (`rematch_request`). True if `input`
    /// was one of them; the game waits for the server's answer.
    pub(super) fn online_request(&mut self, t: u64, input: &Input, out: &mut Vec<Stamped>) -> bool {
        let Some(online) = self.online.as_ref() else {
            return false;
        };
        let mine = online.color;
        let against_ai = online.opponent().ai.is_some();
        if self.game.is_over() {
            return self.rematch_request(t, input, out);
        }
        // A move made since the opponent's request ended it.
        let takeback_stands = self.takeback_offer == Some(self.game.ply());
        let gone = self.opponent_gone.is_some();
        let (request, notice) = match input {
            // lila takes a takeback request once both have moved (Game
            // `playerCanProposeTakeback`), and drops any other unsaid.
            Input::PracticeTakeBack if (1..2).contains(&self.game.ply()) && !takeback_stands => {
                out.push(Stamped {
                    t,
                    event: Event::OnlineNotice {
                        notice: "takeback_not_now",
                        seconds: None,
                        say: OnlineNotice::TakebackNotNow.into(),
                    },
                });
                return true;
            }
            Input::PracticeTakeBack if self.game.ply() > 0 => {
                self.takeback_offer = None;
                ("takeback", OnlineNotice::TakebackAsked)
            }
            Input::DrawDecline(c)
                if *c == mine && takeback_stands && self.game.draw_offer() != Some(!mine) =>
            {
                self.takeback_offer = None;
                ("takeback_decline", OnlineNotice::TakebackDeclined)
            }
            Input::FlagClaim(c) if *c == mine && gone => return self.gone_claim(t, false, out),
            Input::FlagClaim(c) if *c == mine => {
                self.say(t, OnlineNotice::ClaimNotYet, out);
                return true;
            }
            // The opponent who left: a draw claimed as lichess takes it
            // (claim-draw), unless a repetition stands, which lichess's
            // draw/yes grants at once on either player's move (below).
            Input::DrawClaim(c) if *c == mine && gone && self.game.repetitions() < 3 => {
                return self.gone_claim(t, true, out);
            }
            Input::Resign(c) if *c == mine && self.game.ply() < 2 => {
                ("abort", OnlineNotice::AbortAsked)
            }
            // lichess ends a game drawn by repetition when the player's
            // draw/yes claims it; else the claim stands as his offer. The
            // game ends only when lichess's state says so.
            Input::DrawClaim(c) if *c == mine && !against_ai => {
                // Without a repetition lila makes it his offer (Drawer
                // `yes`), which counts as one for its 20 plies.
                let ply = self.game.ply();
                if self.game.repetitions() < 3
                    && ply >= 2
                    && self.online_draw_at.is_none_or(|at| ply > at + 20)
                {
                    self.online_draw_at = Some(ply);
                }
                ("draw_claim", OnlineNotice::DrawClaimed)
            }
            // The opponent's offer accepted: lichess ends the game, and
            // the game here ends with its state (an offer lichess no
            // longer holds makes the acceptance the player's own offer).
            Input::DrawOffer(c) if *c == mine && self.game.draw_offer() == Some(!mine) => {
                ("draw_accept", OnlineNotice::DrawAccepted)
            }
            // lichess's AI takes no offer, and no claim from a board.
            Input::DrawOffer(c) | Input::DrawClaim(c) if *c == mine && against_ai => {
                out.push(Stamped {
                    t,
                    event: Event::OnlineNotice {
                        notice: "ai_no_draw",
                        seconds: None,
                        say: OnlineNotice::AiNoDraw.into(),
                    },
                });
                return true;
            }
            // lila takes a player's draw offer once both have moved, and
            // one in 20 plies (GameExt `playerCanOfferDraw`,
            // `playerHasOfferedDrawRecently`); else it drops it unsaid.
            Input::DrawOffer(c)
                if *c == mine
                    && (self.game.ply() < 2
                        || self
                            .online_draw_at
                            .is_some_and(|at| self.game.ply() <= at + 20)) =>
            {
                out.push(Stamped {
                    t,
                    event: Event::OnlineNotice {
                        notice: "draw_not_now",
                        seconds: None,
                        say: OnlineNotice::DrawNotNow.into(),
                    },
                });
                return true;
            }
            Input::DrawOffer(c) if *c == mine => {
                self.online_draw_at = Some(self.game.ply());
                return false;
            }
            _ => return false,
        };
        out.push(Stamped {
            t,
            event: Event::OnlineRequest {
                request,
                say: notice.into(),
            },
        });
        true
    }

    /// The win (or, `draw`, a draw) claimed when the opponent left: lichess
    /// grants it only while he is to move and only once its wait is over,
    /// so the player is told which is missing, or the claim is asked.
    fn gone_claim(&mut self, t: u64, draw: bool, out: &mut Vec<Stamped>) -> bool {
        let (Some(at), Some(mine)) = (self.opponent_gone, self.online.as_ref().map(|o| o.color))
        else {
            return false;
        };
        let (notice, seconds, say) = if self.game.turn() == mine {
            // lila's claim does nothing on the player's own move.
            let (name, notice) = if draw {
                ("claim_draw_own_turn", OnlineNotice::ClaimDrawOwnTurn)
            } else {
                ("claim_own_turn", OnlineNotice::ClaimOwnTurn)
            };
            (name, None, crate::core::said::Said::from(notice))
        } else if t < at {
            // lichess grants the claim only after its wait: told how long
            // is left, nothing asked.
            let seconds = (at - t).div_ceil(1000);
            let name = if draw { "claim_draw_in" } else { "claim_in" };
            (name, Some(seconds), Said::OnlineClaimIn { seconds, draw })
        } else {
            let (request, notice) = if draw {
                ("claim_draw", OnlineNotice::ClaimDraw)
            } else {
                ("claim_victory", OnlineNotice::Claim)
            };
            out.push(Stamped {
                t,
                event: Event::OnlineRequest {
                    request,
                    say: notice.into(),
                },
            });
            return true;
        };
        out.push(Stamped {
            t,
            event: Event::OnlineNotice {
                notice,
                seconds,
                say,
            },
        });
        true
    }

    /// After an online game, before the next: the player's draw offer
    /// offers the opponent a rematch (or accepts the one he offered), and
    /// the next game begins here at once, for the pieces to be set up
    /// while lichess starts it; his decline refuses the opponent's.
    fn rematch_request(&mut self, t: u64, input: &Input, out: &mut Vec<Stamped>) -> bool {
        let Some(online) = self.online.as_ref() else {
            return false;
        };
        let mine = online.color;
        let name = online.opponent().name.clone();
        let (request, rematch) = match input {
            Input::DrawOffer(c) if *c == mine && self.rematch_offer => {
                ("rematch_accept", Rematch::Accepted)
            }
            Input::DrawOffer(c) if *c == mine => ("rematch", Rematch::Asked),
            Input::DrawDecline(c) if *c == mine && self.rematch_offer => {
                ("rematch_decline", Rematch::Declined)
            }
            _ => return false,
        };
        self.rematch_offer = false;
        out.push(Stamped {
            t,
            event: Event::OnlineRequest {
                request,
                say: Said::OnlineRematch {
                    rematch,
                    name: name.clone(),
                },
            },
        });
        if rematch != Rematch::Declined {
            self.new_game(t, out);
        }
        true
    }

    /// After the online game, the opponent offers a rematch: the player
    /// hears it (his draw offer accepts, his decline refuses).
    pub(super) fn online_rematch(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let Some(online) = self.online.as_ref() else {
            return;
        };
        if !self.game.is_over() || self.new_game_given {
            return;
        }
        let color = Side(!online.color);
        let say = Said::OnlineRematch {
            rematch: Rematch::Offered,
            name: online.opponent().name.clone(),
        };
        self.rematch_offer = true;
        out.push(Stamped {
            t,
            event: Event::OnlineOffer {
                offer: "rematch",
                color,
                say,
            },
        });
    }

    /// An online game left for a new one at the board: given up on the
    /// server (resigned; aborted before both moved), where it would
    /// otherwise go on until the player's clock ran out. A game without a
    /// clock (a correspondence game) is left as it is: it waits on the
    /// server, to be taken up again.
    pub(super) fn leave_online_game(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let timed = self.online.as_ref().is_some_and(|o| o.initial_ms.is_some());
        if !timed || self.game.is_over() {
            return;
        }
        let request = if self.game.ply() < 2 {
            "abort"
        } else {
            "resign"
        };
        out.push(Stamped {
            t,
            event: Event::OnlineRequest {
                request,
                // The new game is what the player hears.
                say: Said::Nothing,
            },
        });
    }

    /// The opponent asks to take back his last move: the player hears it
    /// (his `takeback` key agrees).
    pub(super) fn online_takeback(&mut self, t: u64, out: &mut Vec<Stamped>) {
        let Some(mine) = self.online.as_ref().map(|o| o.color) else {
            return;
        };
        self.takeback_offer = Some(self.game.ply());
        out.push(Stamped {
            t,
            event: Event::OnlineOffer {
                offer: "takeback",
                color: Side(!mine),
                say: Said::OnlineTakeback(!mine),
            },
        });
    }

    /// The opponent left (the win claimable in `seconds`), or is back.
    pub(super) fn online_gone(&mut self, t: u64, seconds: Option<u32>, out: &mut Vec<Stamped>) {
        let Some(mine) = self.online.as_ref().map(|o| o.color) else {
            return;
        };
        if self.game.is_over() {
            return;
        }
        self.opponent_gone = seconds.map(|s| t + u64::from(s) * 1000);
        out.push(Stamped {
            t,
            event: Event::OnlineOpponent {
                gone: seconds.is_some(),
                seconds,
                say: Said::OnlineOpponent {
                    color: !mine,
                    seconds,
                },
            },
        });
    }

    /// A chat message: read out.
    pub(super) fn online_chat(
        &mut self,
        t: u64,
        name: String,
        text: String,
        out: &mut Vec<Stamped>,
    ) {
        if self.online.is_none() {
            return;
        }
        let say = Said::OnlineChat {
            name: name.clone(),
            text: text.clone(),
        };
        out.push(Stamped {
            t,
            event: Event::OnlineChat { name, text, say },
        });
    }
}
