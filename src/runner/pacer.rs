//! Spacing requests to honour `--rate`: one shared schedule every worker waits on.

use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// Spaces requests to honour `--rate`.
pub struct Pacer {
    next: Mutex<Instant>,
    interval: Option<Duration>,
}

impl Pacer {
    pub fn new(rate: Option<f64>) -> Pacer {
        Pacer {
            next: Mutex::new(Instant::now()),
            interval: rate
                .filter(|r| *r > 0.0)
                .map(|r| Duration::from_secs_f64(1.0 / r)),
        }
    }

    pub async fn wait(&self) {
        let Some(step) = self.interval else { return };
        let at = {
            let mut next = self.next.lock().await;
            let now = Instant::now();
            let at = (*next).max(now);
            *next = at + step;
            at
        };
        tokio::time::sleep_until(at.into()).await;
    }
}
