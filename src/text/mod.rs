//! Small leaves for what users write, shared by every wing that reads it:
//! numbers in their range ([`bounded`]), user text quoted in an error
//! ([`quote`]), and a problem at a configuration key ([`key`]).

pub mod bounded;
pub mod key;
pub mod quote;
