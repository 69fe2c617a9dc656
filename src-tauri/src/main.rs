//! The YUI desktop app's entry point; everything else is in the library.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    yui_lib::run();
}
