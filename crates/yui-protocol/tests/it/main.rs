//! yui-protocol's integration tests, one binary.

mod chat_fold;
