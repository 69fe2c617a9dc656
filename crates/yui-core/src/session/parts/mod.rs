//! The driver's owned parts: each holds one group of the session loop's
//! state behind its own methods, and no part reaches into another. The
//! driver ([`super::driver::Driver`]) holds the parts and the few things
//! every part needs (the engine, the sink, the clock, the live settings,
//! the desk); a flow that needs two parts lives on the driver, in the file
//! of that flow, and calls each part's methods.

pub(super) mod asks;
pub(super) mod body;
pub(super) mod company;
pub(super) mod initiative;
pub(super) mod link;
pub(super) mod records;
pub(super) mod voice;
