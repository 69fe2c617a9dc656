//! Presence rules for the app as a whole: one running YUI per installation,
//! and starting at login when the user asks for it (`docs/platforms.md`). The app
//! carries these out with its plugins; what to do is decided here.

/// What to do with the OS's login item so it matches the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AutostartAction {
    /// Register YUI to start at login.
    Enable,
    /// Remove YUI's login item.
    Disable,
    /// Leave the login item as it is.
    Keep,
}

/// The action that makes the login item follow `wanted`
/// (`Settings::start_at_login`), given whether it is `registered` now
/// (`None`: the OS could not say). An unknown state is enabled when wanted
/// and otherwise left alone: there is nothing of ours known to remove, and
/// the default (off) must not touch the OS at every launch.
pub fn autostart_action(wanted: bool, registered: Option<bool>) -> AutostartAction {
    match (wanted, registered) {
        (true, Some(true)) | (false, Some(false)) | (false, None) => AutostartAction::Keep,
        (true, Some(false)) | (true, None) => AutostartAction::Enable,
        (false, Some(true)) => AutostartAction::Disable,
    }
}

/// Whether a second launch should hand over to the running YUI and exit.
/// A run with its own data directory (`YUI_DATA_DIR`, set by the tests to
/// isolate a whole installation) is another installation, so it runs beside
/// the user's YUI instead of waking it.
pub fn single_instance(data_dir_overridden: bool) -> bool {
    !data_dir_overridden
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_login_item_follows_the_setting_and_the_default_touches_nothing() {
        use AutostartAction::*;
        assert_eq!(autostart_action(false, Some(false)), Keep);
        assert_eq!(autostart_action(false, None), Keep);
        assert_eq!(autostart_action(true, Some(true)), Keep);
        assert_eq!(autostart_action(true, Some(false)), Enable);
        assert_eq!(autostart_action(true, None), Enable);
        assert_eq!(autostart_action(false, Some(true)), Disable);
        // Off by default: a fresh installation leaves the OS alone.
        let fresh = crate::Settings::default();
        assert!(!fresh.user.start_at_login);
        assert_eq!(autostart_action(fresh.user.start_at_login, Some(false)), Keep);
    }

    #[test]
    fn an_isolated_data_dir_is_its_own_installation() {
        assert!(single_instance(false));
        assert!(!single_instance(true));
    }
}
