//! Small leaves for what users write, shared by every wing that reads it:
//! numbers in their range ([`bounded`]) and user text quoted in an error
//! ([`quote`]).

pub mod bounded;
pub mod quote;
