//! `--budget` and `--seconds`, shared by the commands that run rules for a long time (`script`,
//! `simulate`, `campaign`): what each call from the engine into Lua may use.

use kessel_core::script::Limits;

/// The limit flags of a command.
#[derive(clap::Args, Clone, Debug)]
pub struct LimitArgs {
    /// Millions of Lua instructions allowed per call.
    #[arg(long, default_value_t = 200)]
    pub budget: u64,
    /// Seconds of wall time allowed per call (a safety net for work the instruction count does
    /// not see, such as joining big strings; a debug build or a busy machine may need more).
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
}

impl LimitArgs {
    /// The limits, or an error naming the flag whose value cannot be one.
    pub fn limits(&self) -> anyhow::Result<Limits> {
        if !(self.seconds > 0.0 && self.seconds <= 86_400.0) {
            anyhow::bail!(
                "--seconds {}: give a number of seconds from above 0 to 86400",
                self.seconds
            );
        }
        // (a budget of 0 stopped the ruleset's own init.lua, blamed at its first line)
        if self.budget == 0 {
            anyhow::bail!(
                "--budget 0: give the millions of Lua instructions a call may use, 1 or more"
            );
        }
        Ok(Limits {
            instructions: self.budget.saturating_mul(1_000_000),
            wall: std::time::Duration::from_secs_f64(self.seconds),
            ..Limits::default()
        })
    }
}
