//! Numbers read from a file, each with its range.
//!
//! Every number of the configuration is read through one of these, named
//! in the field's `#[serde(deserialize_with = …)]`, so a value out of its
//! range is refused where it is read: the TOML reader then names the key
//! and its line, and the message says the range.

use serde::{Deserialize, Deserializer, de::Error};

/// A whole number from `MIN` to `MAX`.
pub fn u64_in<'de, D: Deserializer<'de>, const MIN: u64, const MAX: u64>(
    d: D,
) -> Result<u64, D::Error> {
    let v = u64::deserialize(d)?;
    if (MIN..=MAX).contains(&v) {
        Ok(v)
    } else {
        Err(D::Error::custom(format!(
            "must be from {MIN} to {MAX}, not {v}"
        )))
    }
}

/// A whole number from `MIN` to `MAX`.
pub fn u32_in<'de, D: Deserializer<'de>, const MIN: u64, const MAX: u64>(
    d: D,
) -> Result<u32, D::Error> {
    let v = u64_in::<D, MIN, MAX>(d)?;
    u32::try_from(v).map_err(|_| D::Error::custom(format!("must be at most {}", u32::MAX)))
}

/// A whole number from `MIN` to `MAX`.
pub fn u8_in<'de, D: Deserializer<'de>, const MIN: u64, const MAX: u64>(
    d: D,
) -> Result<u8, D::Error> {
    let v = u64_in::<D, MIN, MAX>(d)?;
    u8::try_from(v).map_err(|_| D::Error::custom(format!("must be at most {}", u8::MAX)))
}

/// A whole number from `MIN` to `MAX`, either side of zero.
pub fn i32_in<'de, D: Deserializer<'de>, const MIN: i32, const MAX: i32>(
    d: D,
) -> Result<i32, D::Error> {
    let v = i64::deserialize(d)?;
    if (i64::from(MIN)..=i64::from(MAX)).contains(&v) {
        Ok(v as i32)
    } else {
        Err(D::Error::custom(format!(
            "must be from {MIN} to {MAX}, not {v}"
        )))
    }
}

/// A loudness from 0.0 (silent) to 1.0 (full); `nan` is refused.
pub fn fraction<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    let v = f64::deserialize(d)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v as f32)
    } else {
        Err(D::Error::custom(format!(
            "must be from 0.0 to 1.0, not {v}"
        )))
    }
}

/// A list of whole numbers, each from `MIN` to `MAX`, at most `LEN` long.
pub fn list_in<'de, D: Deserializer<'de>, const MIN: u64, const MAX: u64, const LEN: usize>(
    d: D,
) -> Result<Vec<u64>, D::Error> {
    let v = Vec::<u64>::deserialize(d)?;
    if v.len() > LEN {
        return Err(D::Error::custom(format!(
            "may list at most {LEN} values, not {}",
            v.len()
        )));
    }
    match v.iter().find(|x| !(MIN..=MAX).contains(x)) {
        Some(bad) => Err(D::Error::custom(format!(
            "each value must be from {MIN} to {MAX}, not {bad}"
        ))),
        None => Ok(v),
    }
}

/// `N` numbers, each from `MIN` to `MAX`: pins and lines, or I²C
/// addresses, which the message writes in hexadecimal when `HEX`.
pub fn each_in<'de, D, const N: usize, const MIN: u8, const MAX: u8, const HEX: bool>(
    d: D,
) -> Result<[u8; N], D::Error>
where
    D: Deserializer<'de>,
    [u8; N]: Deserialize<'de>,
{
    let v = <[u8; N]>::deserialize(d)?;
    match v.iter().find(|x| !(MIN..=MAX).contains(x)) {
        Some(bad) if HEX => Err(D::Error::custom(format!(
            "each value must be from {MIN:#04x} to {MAX:#04x}, not {bad:#04x}"
        ))),
        Some(bad) => Err(D::Error::custom(format!(
            "each value must be from {MIN} to {MAX}, not {bad}"
        ))),
        None => Ok(v),
    }
}
