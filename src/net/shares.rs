//! Fair shares of a bounded number of places: the server's connections and
//! the mirror's event streams.
//!
//! A hall's devices are all on one network, so a place is counted against
//! the device that holds it (its [`holder`]: an IPv4 address, or an IPv6
//! /64, since one IPv6 host may take any number of addresses in its /64).
//! Each holder may hold at most its share. When every place is taken, a
//! newcomer takes one from the holder that holds the most, if that holder
//! holds more than the newcomer would: the oldest place that has shown no
//! credential. So one laptop with many addresses can fill the places while
//! nobody else wants them, and it gives them up one by one as others come.
//! A place that has shown a credential (the assistant's console session,
//! or the secret) is bounded by no share and never taken. A hall hub
//! shows none: it holds one stream and a connection or two on each board,
//! well within any device's share.
//!
//! Pure: the server tells the place taken from whom to close.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;

/// Who a place is counted against: an IPv4 address (one written as IPv6
/// too) as it is, an IPv6 address by its /64.
pub fn holder(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & (u128::MAX << 64)).into()),
        },
    }
}

/// A place given: its number, and the number of the place taken from
/// another holder for it (to be closed), if the places were all taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Given {
    pub id: u64,
    pub taken_from_another: Option<u64>,
}

#[derive(Debug, Clone, Copy)]
struct Place {
    id: u64,
    /// It showed a credential: bounded by no share, never taken.
    proven: bool,
}

/// The places, and who holds them.
#[derive(Debug)]
pub struct Shares {
    cap: usize,
    share: usize,
    held: HashMap<IpAddr, VecDeque<Place>>,
    total: usize,
    next: u64,
}

impl Shares {
    /// `cap` places in all, at most `share` for one holder without a
    /// credential.
    pub fn new(cap: usize, share: usize) -> Shares {
        Shares {
            cap,
            share,
            held: HashMap::new(),
            total: 0,
            next: 0,
        }
    }

    /// The places taken now.
    pub fn taken(&self) -> usize {
        self.total
    }

    /// The places `from`'s holder holds now.
    pub fn held_by(&self, from: IpAddr) -> usize {
        self.held.get(&holder(from)).map_or(0, VecDeque::len)
    }

    /// A place for `from`; `proven`: it shows a credential. `None` when
    /// its holder has its share, or every place is taken and no holder
    /// holds more than it would.
    pub fn give(&mut self, from: IpAddr, proven: bool) -> Option<Given> {
        let who = holder(from);
        let mine = self.held.get(&who).map_or(0, VecDeque::len);
        if !proven && mine >= self.share {
            return None;
        }
        let taken_from_another = if self.total < self.cap {
            None
        } else {
            Some(self.take_from_the_most(who, mine, proven)?)
        };
        self.next += 1;
        let id = self.next;
        self.held
            .entry(who)
            .or_default()
            .push_back(Place { id, proven });
        self.total += 1;
        Some(Given {
            id,
            taken_from_another,
        })
    }

    /// The oldest unproven place of the holder that holds the most, other
    /// than `who`, if it holds more than `who` would (any, for a newcomer
    /// with a credential): given up.
    fn take_from_the_most(&mut self, who: IpAddr, mine: usize, proven: bool) -> Option<u64> {
        let (most, count) = self
            .held
            .iter()
            .filter(|(h, _)| **h != who)
            .map(|(h, places)| (*h, places.iter().filter(|p| !p.proven).count()))
            .filter(|&(_, n)| n > 0)
            .max_by_key(|&(h, n)| (n, std::cmp::Reverse(h)))?;
        if !proven && count <= mine + 1 {
            return None;
        }
        let places = self.held.get_mut(&most)?;
        let at = places.iter().position(|p| !p.proven)?;
        let place = places.remove(at)?;
        if places.is_empty() {
            self.held.remove(&most);
        }
        self.total -= 1;
        Some(place.id)
    }

    /// The place `id` of `from` showed a credential: it is never taken.
    pub fn prove(&mut self, from: IpAddr, id: u64) {
        if let Some(p) = self
            .held
            .get_mut(&holder(from))
            .and_then(|places| places.iter_mut().find(|p| p.id == id))
        {
            p.proven = true;
        }
    }

    /// The place `id` of `from` is free again (a place already taken for
    /// another is not counted twice).
    pub fn free(&mut self, from: IpAddr, id: u64) {
        let who = holder(from);
        let Some(places) = self.held.get_mut(&who) else {
            return;
        };
        if let Some(at) = places.iter().position(|p| p.id == id) {
            places.remove(at);
            self.total -= 1;
        }
        if places.is_empty() {
            self.held.remove(&who);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(last: u8) -> IpAddr {
        IpAddr::from([192, 168, 1, last])
    }

    #[test]
    fn a_place_counts_against_its_address_or_its_ipv6_64() {
        let h = |a: &str| holder(a.parse().expect("address")).to_string();
        // One hall network: every device its own holder.
        assert_ne!(h("192.168.1.20"), h("192.168.1.21"));
        assert_eq!(h("::ffff:192.168.1.20"), "192.168.1.20");
        // An IPv6 host may take any address of its /64.
        assert_eq!(h("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
        assert_eq!(h("2001:db8:1:2::1"), h("2001:db8:1:2:ffff::9"));
        assert_ne!(h("2001:db8:1:3::1"), h("2001:db8:1:2::1"));
    }

    #[test]
    fn one_holder_has_its_share_and_no_more() {
        let mut s = Shares::new(10, 3);
        for _ in 0..3 {
            assert!(s.give(at(1), false).is_some());
        }
        assert_eq!(s.give(at(1), false), None, "past its share");
        assert!(s.give(at(2), false).is_some(), "another device");
        // A credential is bounded by no share.
        assert!(s.give(at(1), true).is_some());
        assert_eq!(s.taken(), 5);
    }

    #[test]
    fn a_laptop_with_many_addresses_gives_its_places_up_to_newcomers() {
        // Eight addresses of one laptop fill every place.
        let mut s = Shares::new(16, 2);
        let mut laptop = Vec::new();
        for a in 1..=8 {
            for _ in 0..2 {
                let g = s.give(at(a), false).expect("a free place");
                assert_eq!(g.taken_from_another, None);
                laptop.push((at(a), g.id));
            }
        }
        assert_eq!(s.taken(), 16);
        // A viewer comes: the oldest place of one that holds two is his.
        let viewer = s.give(at(100), false).expect("a place taken for him");
        let taken = viewer.taken_from_another.expect("taken from the laptop");
        assert!(laptop.iter().any(|&(_, id)| id == taken));
        assert_eq!(s.taken(), 16);
        // The assistant and the arbiter too, each from a holder of two.
        for newcomer in [101, 102] {
            let g = s.give(at(newcomer), false).expect("a place");
            assert!(g.taken_from_another.is_some());
        }
        // The laptop asking again takes nothing from those who hold one:
        // its addresses that hold two have all they may take.
        let back = s.give(at(9), false).expect("from a holder of two");
        assert!(
            laptop
                .iter()
                .any(|&(_, id)| Some(id) == back.taken_from_another)
        );
        for _ in 0..20 {
            s.give(at(10), false);
        }
        assert_eq!(s.held_by(at(100)), 1, "the viewer keeps his place");
        assert_eq!(s.held_by(at(101)), 1);
        assert_eq!(s.held_by(at(102)), 1);
        assert_eq!(s.taken(), 16);
    }

    #[test]
    fn a_place_that_showed_a_credential_is_never_taken() {
        let mut s = Shares::new(3, 3);
        let console = s.give(at(1), false).expect("a place");
        s.prove(at(1), console.id);
        let other = s.give(at(1), false).expect("a place");
        s.give(at(2), false).expect("a place");
        // Every place taken; at(1) holds one unproven place, at(2) one: a
        // newcomer without a credential would hold as many, and takes none.
        assert_eq!(s.give(at(3), false), None);
        // A newcomer with a credential takes the oldest unproven place of
        // the one that holds the most.
        let assistant = s.give(at(3), true).expect("a place");
        assert_eq!(assistant.taken_from_another, Some(other.id));
        assert_eq!(s.held_by(at(1)), 1, "the console's place stays");
        // Nobody left without a credential to take from but at(2).
        let hub = s.give(at(4), true).expect("a place");
        assert!(hub.taken_from_another.is_some());
        assert_eq!(s.give(at(5), true), None, "every place proven");
    }

    #[test]
    fn a_place_freed_is_counted_once() {
        let mut s = Shares::new(2, 2);
        let a = s.give(at(1), false).expect("a place");
        let b = s.give(at(1), false).expect("a place");
        let c = s.give(at(2), false).expect("taken from at(1)");
        assert_eq!(c.taken_from_another, Some(a.id));
        // The connection whose place was taken closes, and frees nothing
        // more.
        s.free(at(1), a.id);
        assert_eq!(s.taken(), 2);
        s.free(at(1), b.id);
        s.free(at(2), c.id);
        assert_eq!(s.taken(), 0);
        assert!(s.held.is_empty());
    }
}
