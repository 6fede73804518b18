//! Shared by the damage tests of this crate and of the `studio` binary: real damage to a real store.

pub mod damage;
pub mod fixture;
