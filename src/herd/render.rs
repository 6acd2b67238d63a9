//! A herd in words (the caption, which is also its table form) and as CSV.

use super::Herd;
use crate::format_duration;
use crate::number_text::{format_count, grouped, significant};

impl Herd {
    /// The table form: the caption, compared with `spike` when one is given.
    pub fn to_table(&self, spike: Option<&Herd>) -> String {
        format!("{}\n", self.caption(spike))
    }

    /// The herd's numbers in words, compared with the unjittered spike when one is given. A
    /// peak counted in bins wider than a second is said to be the busiest bin's average.
    pub fn caption(&self, spike: Option<&Herd>) -> String {
        let first = &self.first_retry;
        let (fail, their) = match self.deliveries {
            1 => ("1 delivery fails".to_string(), "its first retry peaks"),
            n => (
                format!("{} deliveries fail", format_count(n as f64)),
                "their first retries peak",
            ),
        };
        if self.first_retry_per_second.iter().all(|&n| n == 0) {
            return format!("{fail} in the same second. With a single attempt nothing is retried.");
        }
        let mean = format_rate(first.mean_per_s);
        let (per_s, peak_to_mean, averaged) = self.first_retry_peak();
        let peak = match averaged {
            None => format!("{} per second", format_peak(per_s, averaged)),
            Some(bin_s) => format!(
                "{} per second averaged over the busiest {}",
                format_peak(per_s, averaged),
                format_duration(bin_s)
            ),
        };
        // A seed draws nothing without jitter: said only where it decides the numbers.
        let with = match self.mode.as_str() {
            "none" => "Without jitter".to_string(),
            mode => format!("With {mode} jitter (seed {})", self.seed),
        };
        // The shortest window is the failures' second and the next, which a first gap of a
        // second or less spans (its latest retry may come sooner).
        let window = format_duration(first.window_s);
        let over = if first.window_s == first.bin_s + 1.0 {
            format!("the {window} of the failures' second and the next")
        } else {
            format!("the {window} to the latest first retry")
        };
        let mut text = format!(
            "{fail} in the same second. {with} {their} at {peak} \
             against a mean of {mean} per second over {over} ({} the mean).",
            format_multiple(peak_to_mean),
        );
        if let Some(spike) = spike.filter(|s| s.mode != self.mode) {
            // The spike simulates at most 100,000 deliveries: its busiest second's share of
            // them holds for any number. Its multiple is of the mean said just before (the
            // jittered herd's: jitter can stretch the span its mean is taken over).
            let (busiest, _) = spike.unjittered_first_second();
            let share = busiest / spike.deliveries as f64;
            let all = match self.deliveries {
                1 => "it arrives".to_string(),
                count => format!("all {} arrive", format_count(count as f64)),
            };
            let busiest = share * self.deliveries as f64;
            let multiple = busiest / first.mean_per_s;
            // A first gap of a fraction of a second splits the second they arrive within
            // over two clock seconds: the multiple is of the busier one's count, which is said
            // (outside review: "all 10 … 56.2× the mean" was 5 a second).
            let split = if share < 1.0 {
                format!(
                    " (split over two clock seconds, at most {} in one)",
                    format_count(busiest.round())
                )
            } else {
                String::new()
            };
            text += &format!(
                " Without jitter {all} within one second{split}, {} the mean.",
                format_multiple(multiple)
            );
        }
        text += &if self.bin_s == 1.0 {
            format!(
                " Over the whole schedule retries peak at {} per second ({} the mean of {} per second).",
                format_count(self.peak_per_s),
                format_multiple(self.peak_to_mean),
                format_rate(self.mean_per_s)
            )
        } else if self.mode == "none" {
            // One delivery has no others to arrive with ("each retry of all 1").
            let together = match self.deliveries {
                1 => "its every retry arrives alone".to_string(),
                n => format!(
                    "each retry of all {} arrives within one second of the others",
                    format_count(n as f64)
                ),
            };
            format!(
                " Over the whole schedule {together}, at least {} per second ({} the mean of {} \
                 per second).",
                format_count(self.deliveries as f64),
                format_multiple(self.deliveries as f64 / self.mean_per_s),
                format_rate(self.mean_per_s)
            )
        } else {
            format!(
                " Over the whole schedule retries peak at {} per second averaged over the busiest {} \
                 ({} the mean of {} per second).",
                format_rate(self.peak_per_s),
                format_duration(self.bin_s),
                format_multiple(self.peak_to_mean),
                format_rate(self.mean_per_s)
            )
        };
        text
    }

    /// CSV: one line per second with first retries and all retries while both histograms have
    /// 1 s bins (`second,first_retries,retries`). Otherwise one line per bin of the whole
    /// schedule with its start and width (`bin_start_s,bin_s,retries`), and first retries too
    /// when their bins have the same width (`bin_start_s,bin_s,first_retries,retries`); in the
    /// JSON, first retries always have their own bins.
    pub fn to_csv(&self) -> String {
        let (bin, first_bin) = (self.bin_s, self.first_retry.bin_s);
        let first = |i: usize| self.first_retry_per_second.get(i).copied().unwrap_or(0);
        if bin == 1.0 && first_bin == 1.0 {
            let mut out = String::from("second,first_retries,retries\n");
            for (i, count) in self.per_second.iter().enumerate() {
                out += &format!("{i},{},{count}\n", first(i));
            }
            return out;
        }
        let with_first = first_bin == bin;
        let mut out = String::from(if with_first {
            "bin_start_s,bin_s,first_retries,retries\n"
        } else {
            "bin_start_s,bin_s,retries\n"
        });
        for (i, count) in self.per_second.iter().enumerate() {
            let start = i as f64 * bin;
            out += &if with_first {
                format!("{start},{bin},{},{count}\n", first(i))
            } else {
                format!("{start},{bin},{count}\n")
            };
        }
        out
    }
}

/// A multiple of a mean, as every multiple is written: `1.32×`, `366×`.
impl Herd {
    /// The first retries' peak rate as the caption gives it, its multiple of their mean rate,
    /// and the width of the bin it is averaged over when wider than a second. Unjittered,
    /// every first retry arrives within one second of the others: wide bins would average that
    /// second away (see the module docs), so it is counted whole.
    pub(crate) fn first_retry_peak(&self) -> (f64, f64, Option<f64>) {
        let first = &self.first_retry;
        if self.mode == "none" {
            let (all, multiple) = self.unjittered_first_second();
            return (all, multiple, None);
        }
        let averaged = (first.bin_s != 1.0).then_some(first.bin_s);
        (first.peak_per_s, first.peak_to_mean, averaged)
    }
}

/// A peak rate as the caption writes it: a count of a second's retries, or a rate averaged
/// over a wider bin (`0.0040`).
pub(crate) fn format_peak(per_s: f64, averaged_over_s: Option<f64>) -> String {
    match averaged_over_s {
        None => format_count(per_s),
        Some(_) => format_rate(per_s),
    }
}

fn format_multiple(value: f64) -> String {
    format!("{}×", crate::number_text::multiple(value))
}

/// A rate counted in wide bins, to three significant digits without an exponent: `0.0000386`.
pub(crate) fn format_rate(per_s: f64) -> String {
    if per_s.is_nan() || per_s <= 0.0 {
        return "0".to_string();
    }
    grouped(&significant(per_s, 3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::herd::herd;
    use crate::jitter::Jitter;
    use crate::{Policy, Stop};

    const DAY: f64 = 86_400.0;

    #[test]
    fn an_ordinary_herd_reads_per_second() {
        let spread = herd(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
        let spike = spread.unjittered_spike(&Policy::article()).unwrap();
        assert_eq!(
            spread.caption(spike.as_ref()),
            "1,000 deliveries fail in the same second. With full jitter (seed 42) their first \
             retries peak at 44 per second against a mean of 33.3 per second over the 30 s to \
             the latest first retry (1.32× the mean). Without jitter all 1,000 arrive within one second, 30× the mean. \
             Over the whole schedule retries peak at 55 per second (366× the mean of 0.150 per second)."
        );
        let csv = spread.to_csv();
        assert!(csv.starts_with("second,first_retries,retries\n0,22,22\n1,38,38\n2,26,28\n"));
        assert_eq!(csv.lines().count(), 1 + 86_523);
    }

    /// A 1 s first gap under full jitter: the failure's second spreads the first retries over
    /// two seconds, and so does their mean; it was over the 1 s gap alone, and their peak read
    /// "0.501× the mean" (outside review). So do a schedule a second or so long in all, and
    /// first retries a fraction of a second or an instant after the failure: each mean is over
    /// at least the failure's second and the next.
    #[test]
    fn a_herd_of_a_short_reach_peaks_at_its_mean_or_above() {
        let cases = [
            (
                Policy::new(1.0, 3.0, 10.0, Stop::Attempts(14)).unwrap(),
                2.0,
                Jitter::Full,
            ),
            (
                Policy::new(0.25, 1.0, 0.25, Stop::Attempts(4)).unwrap(),
                2.0,
                Jitter::Full,
            ),
            (
                Policy::new(0.5, 1.0, 0.5, Stop::Attempts(2)).unwrap(),
                2.0,
                Jitter::None,
            ),
            (
                Policy::new(1.5, 1.0, 1.5, Stop::Attempts(2)).unwrap(),
                2.0,
                Jitter::Full,
            ),
        ];
        for (policy, first_window, jitter) in cases {
            let herd = herd(&policy, jitter, 10_000, 42).unwrap();
            assert_eq!(herd.first_retry.window_s, first_window, "{policy:?}");
            assert!(
                herd.first_retry.peak_to_mean >= 0.98,
                "{policy:?}: {herd:?}"
            );
            assert!(herd.peak_to_mean >= 0.98, "{policy:?}: {herd:?}");
        }
        let caption = herd(&cases[0].0, Jitter::Full, 1_000, 42)
            .unwrap()
            .caption(None);
        assert!(
            caption.contains(
                "against a mean of 500 per second over the 2 s of the failures' second and the next"
            ),
            "{caption}"
        );
        // A reach of two seconds or more is the article's window: the 30 s to the first retry.
        let article = herd(&Policy::article(), Jitter::Full, 1_000, 42).unwrap();
        assert_eq!(article.first_retry.window_s, 30.0);
    }

    #[test]
    fn a_herd_past_the_spikes_100000_deliveries_names_all_of_them() {
        for deliveries in [100_001, 1_000_000] {
            let spread = herd(&Policy::article(), Jitter::Full, deliveries, 1).unwrap();
            let spike = spread.unjittered_spike(&Policy::article()).unwrap();
            let caption = spread.caption(spike.as_ref());
            assert!(
                caption.contains(&format!(
                    "Without jitter all {} arrive within one second, 30× the mean.",
                    crate::number_text::format_count(deliveries as f64)
                )),
                "{caption}"
            );
        }
    }

    #[test]
    fn wide_bins_are_named_and_their_peaks_called_averages() {
        let policy = Policy::new(300.0 * DAY, 1.0, 300.0 * DAY, Stop::Attempts(2)).unwrap();
        let spread = herd(&policy, Jitter::proportional(1.0).unwrap(), 1_000, 1).unwrap();
        let spike = spread.unjittered_spike(&policy).unwrap();
        assert_eq!(
            spread.caption(spike.as_ref()),
            "1,000 deliveries fail in the same second. With proportional jitter (seed 1) their \
             first retries peak at 0.00333 per second averaged over the busiest 10 min against a \
             mean of 0.0000193 per second over the 600 days to the latest first retry (173× \
             the mean). Without \
             jitter all 1,000 arrive within one second, 51,840,000× the mean. Over the whole \
             schedule retries peak at 0.0167 per second averaged over the busiest 60 s (864× the \
             mean of 0.0000193 per second)."
        );
        // First retries in 10 min bins, the schedule in 1 min bins: the CSV is the schedule's.
        let csv = spread.to_csv();
        assert!(csv.starts_with("bin_start_s,bin_s,retries\n0,60,0\n60,60,0\n"));
        assert_eq!(csv.lines().count(), 1 + 864_002);
        assert!(csv.ends_with("51840060,60,0\n"));
    }

    /// The spike's multiple is of the mean the caption has just said: proportional jitter
    /// stretches the first retries over 36 s, so 1000 in one second is 36× their mean of 27.8
    /// per second (it read 30×, the multiple of the unjittered span's mean); gRPC's 1.2× kept
    /// its decimal (it read 1×).
    #[test]
    fn the_spike_is_a_multiple_of_the_mean_the_caption_names() {
        let proportional = Jitter::proportional(0.2).unwrap();
        let spread = herd(&Policy::article(), proportional, 1_000, 42).unwrap();
        let spike = spread.unjittered_spike(&Policy::article()).unwrap();
        let caption = spread.caption(spike.as_ref());
        assert!(
            caption.contains("against a mean of 27.8 per second over the 36 s")
                && caption.contains("all 1,000 arrive within one second, 36× the mean."),
            "{caption}"
        );
        let grpc = crate::presets::preset("grpc").unwrap().policy;
        let spread = herd(&grpc, Jitter::Full, 1_000, 42).unwrap();
        let spike = spread.unjittered_spike(&grpc).unwrap();
        let caption = spread.caption(spike.as_ref());
        let mean = spread.first_retry.mean_per_s;
        assert!(
            caption.contains(&format!(
                "all 1,000 arrive within one second, {}× the mean.",
                crate::number_text::multiple(1_000.0 / mean)
            )) && 1_000.0 / mean < 10.0,
            "{caption}"
        );
    }

    /// A first gap of 112.5 s brings the unjittered herd back over two clock seconds: "all 10
    /// arrive within one second, 56.2× the mean" was of 5 a second. The caption says the
    /// busier second's count, the one an unjittered herd's own caption peaks at.
    #[test]
    fn a_spike_split_over_two_clock_seconds_says_its_busier_one() {
        let policy = Policy::explicit(&[112.5], None, Some(Stop::Attempts(2))).unwrap();
        let spread = herd(&policy, Jitter::Full, 10, 1).unwrap();
        let spike = spread.unjittered_spike(&policy).unwrap().unwrap();
        let busiest = spike.first_retry.peak_per_s;
        assert!(busiest < 10.0, "the seed splits the spike: {busiest}");
        let caption = spread.caption(Some(&spike));
        let said = format!(
            "all 10 arrive within one second (split over two clock seconds, at most {busiest} \
             in one), {}× the mean.",
            crate::number_text::multiple(busiest / spread.first_retry.mean_per_s)
        );
        assert!(caption.contains(&said), "{caption}\nwants {said}");
    }

    /// An unjittered herd in wide bins says what the README promises: all its first retries
    /// within one second, not the busiest bin's average (3.33 per second over 5 min), and
    /// each retry of the schedule the same.
    #[test]
    fn an_unjittered_herd_in_wide_bins_is_counted_in_its_second() {
        let policy = Policy::new(300.0 * DAY, 1.0, 300.0 * DAY, Stop::Attempts(2)).unwrap();
        let spike = herd(&policy, Jitter::None, 1_000, 1).unwrap();
        assert!(spike.first_retry.bin_s > 1.0 && spike.bin_s > 1.0);
        let caption = spike.caption(None);
        assert!(
            caption.contains("Without jitter their first retries peak at 1,000 per second")
                && caption.contains("each retry of all 1,000 arrives within one second")
                && !caption.contains("averaged"),
            "{caption}"
        );
    }

    #[test]
    fn bins_of_one_width_share_the_csv() {
        // 36 h gaps: 1.5 days of first retries and 12 days of schedule, both in 2 s bins.
        let policy = Policy::new(1.5 * DAY, 1.0, 1.5 * DAY, Stop::Attempts(9)).unwrap();
        let h = herd(&policy, Jitter::Full, 100, 3).unwrap();
        assert_eq!((h.first_retry.bin_s, h.bin_s), (2.0, 2.0));
        let csv = h.to_csv();
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("bin_start_s,bin_s,first_retries,retries")
        );
        let (mut first, mut all) = (0, 0);
        for (i, line) in lines.enumerate() {
            let cells: Vec<u64> = line.split(',').map(|c| c.parse().unwrap()).collect();
            assert_eq!(&cells[..2], &[2 * i as u64, 2]);
            first += cells[2];
            all += cells[3];
        }
        assert_eq!((first, all), (100, 800));
    }

    /// One delivery is one, its mean rate keeps its digits, and a single attempt retries nothing.
    #[test]
    fn small_herds_read_as_what_they_are() {
        let one = herd(&Policy::article(), Jitter::Full, 1, 1).unwrap();
        let caption = one.caption(one.unjittered_spike(&Policy::article()).unwrap().as_ref());
        assert!(
            caption.starts_with("1 delivery fails in the same second. With full jitter (seed 1) its first retry peaks at 1 per second against a mean of 0.0333 per second"),
            "{caption}"
        );
        assert!(
            caption.contains("Without jitter it arrives within one second"),
            "{caption}"
        );
        // Unjittered in wide bins: no "each retry of all 1 … of the others".
        let year = Policy::new(300.0 * DAY, 1.0, 300.0 * DAY, Stop::Attempts(2)).unwrap();
        let alone = herd(&year, Jitter::None, 1, 1).unwrap().caption(None);
        assert!(
            alone.contains(
                "Over the whole schedule its every retry arrives alone, at least 1 per second"
            ),
            "{alone}"
        );
        let once = Policy::article().with_stop(Stop::Attempts(1)).unwrap();
        let none = herd(&once, Jitter::Full, 1_000, 1).unwrap();
        assert_eq!(
            none.caption(None),
            "1,000 deliveries fail in the same second. With a single attempt nothing is retried."
        );
    }

    #[test]
    fn small_rates_keep_three_significant_digits() {
        assert_eq!(format_rate(0.0), "0");
        assert_eq!(format_rate(f64::NAN), "0");
        assert_eq!(format_rate(1_000.0 / (300.0 * DAY)), "0.0000386");
        assert_eq!(format_rate(1.0 / 300.0), "0.00333");
        assert_eq!(format_rate(1.0), "1.00");
        assert_eq!(format_rate(55.5), "55.5");
        assert_eq!(format_rate(1234.4), "1,234");
    }
}
