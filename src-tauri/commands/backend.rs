//! The operations of the `Backend` trait on the current backend (the local store or the current
//! connection), one command each. They are not written here: build.rs writes each from its entry
//! `backend::<operation>` in list.rs and the trait's method, with the method's arguments (the caller is the
//! person at this machine) and its answer, so an operation is declared once, in the trait.

// The types of whichever operations the list names.
#[allow(unused_imports)]
use serde_json::Value;
#[allow(unused_imports)]
use studio_model::*;

include!(concat!(env!("OUT_DIR"), "/backend_commands.rs"));
