//! The batch plots, written directly as SVG text: diff paths, exploration time and wall time
//! per subject (grouped bars, one bar per mode/config), and the cumulative number of
//! divergences found over time (one step line per mode/config, summed over subjects). Times
//! go on a logarithmic axis when they span two decades or more ([`Scale`]).
//!
//! Hand-written SVG keeps the bytes deterministic (every number is printed with a fixed
//! number of decimals, every collection is ordered) and needs no font or plotting library.

use super::store::JobRecord;
use crate::markup::escape;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const PALETTE: [&str; 8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
const FONT: &str = "font-family=\"sans-serif\"";

/// A mode/config pair: one series in every plot.
fn series_of(r: &JobRecord) -> String {
    format!("{}/{}", r.mode, r.config)
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks up to `max`.
fn tick_step(max: f64, target: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let raw = max / target;
    let pow = 10f64.powf(raw.log10().floor());
    let m = raw / pow;
    let nice = if m <= 1.0 {
        1.0
    } else if m <= 2.0 {
        2.0
    } else if m <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * pow
}

fn fmt_tick(v: f64, step: f64) -> String {
    if step >= 1.0 {
        format!("{v:.0}")
    } else {
        let decimals = (-step.log10().floor()) as usize;
        format!("{v:.decimals$}")
    }
}

/// How values map onto an axis: linearly from 0, or logarithmically over whole decades when
/// they span two decades or more (times from a millisecond to seconds, where a linear axis
/// shows only the slowest job).
#[derive(Copy, Clone, Debug, PartialEq)]
enum Scale {
    /// From 0 to `top` (a whole number of `step`s).
    Linear { top: f64, step: f64 },
    /// From `10^lo` to `10^hi`.
    Log { lo: i32, hi: i32 },
}

impl Scale {
    /// The scale for `values`: linear for counts (`integer`, whole steps) or when the values
    /// are close together; logarithmic when `log_if_wide` and they span two decades or more.
    fn fit(values: &[f64], integer: bool, log_if_wide: bool) -> Scale {
        let max = values.iter().copied().fold(0.0, f64::max);
        let min_positive = values.iter().copied().filter(|&v| v > 0.0).fold(f64::INFINITY, f64::min);
        if log_if_wide && min_positive.is_finite() && max / min_positive >= 100.0 {
            let lo = min_positive.log10().floor() as i32;
            return Scale::Log { lo, hi: (max.log10().ceil() as i32).max(lo + 1) };
        }
        let step = tick_step(max, 6.0);
        // Counts have no half steps.
        let step = if integer { step.max(1.0) } else { step };
        Scale::Linear { top: (max / step).ceil().max(1.0) * step, step }
    }

    /// Where `v` falls, from 0 (the axis start) to 1 (its end); values below a log axis's
    /// start sit at its start.
    fn frac(self, v: f64) -> f64 {
        match self {
            Scale::Linear { top, .. } => v / top,
            Scale::Log { lo, hi } => {
                let floor = 10f64.powi(lo);
                (v.max(floor).log10() - f64::from(lo)) / f64::from(hi - lo)
            }
        }
    }

    /// The ticks: (value, label).
    fn ticks(self) -> Vec<(f64, String)> {
        match self {
            Scale::Linear { top, step } => {
                let n = (top / step).round() as u64;
                (0..=n).map(|i| i as f64 * step).map(|v| (v, fmt_tick(v, step))).collect()
            }
            Scale::Log { lo, hi } => (lo..=hi)
                .map(|k| {
                    let v = 10f64.powi(k);
                    (v, fmt_tick(v, v.min(1.0)))
                })
                .collect(),
        }
    }

    /// `label`, saying when the scale is logarithmic.
    fn label(self, label: &str) -> String {
        match self {
            Scale::Linear { .. } => label.to_string(),
            Scale::Log { .. } => format!("{label} (log scale)"),
        }
    }
}

struct Frame {
    width: f64,
    height: f64,
    left: f64,
    top: f64,
    plot_w: f64,
    plot_h: f64,
}

fn header(out: &mut String, f: &Frame, title: &str, subtitle: Option<&str>) {
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0}\" height=\"{:.0}\" viewBox=\"0 0 {:.0} {:.0}\">",
        f.width, f.height, f.width, f.height
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"18\" {FONT} font-size=\"14\" text-anchor=\"middle\">{}</text>",
        f.width / 2.0,
        escape(title)
    );
    if let Some(sub) = subtitle {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"34\" {FONT} font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            f.width / 2.0,
            escape(sub)
        );
    }
}

/// The y axis of `scale` with grid lines.
fn y_axis(out: &mut String, f: &Frame, scale: Scale, label: &str) {
    for (v, text) in scale.ticks() {
        let y = f.top + f.plot_h - scale.frac(v) * f.plot_h;
        let _ = writeln!(
            out,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>",
            f.left,
            f.left + f.plot_w
        );
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"end\">{text}</text>",
            f.left - 4.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        out,
        "<text transform=\"translate(14 {:.1}) rotate(-90)\" {FONT} font-size=\"11\" text-anchor=\"middle\">{}</text>",
        f.top + f.plot_h / 2.0,
        escape(&scale.label(label))
    );
    let _ = writeln!(
        out,
        "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
        f.left,
        f.top + f.plot_h,
        f.left + f.plot_w,
        f.top + f.plot_h
    );
}

fn legend(out: &mut String, f: &Frame, series: &[String]) {
    for (i, s) in series.iter().enumerate() {
        let x = f.left + 10.0 + (i as f64) * 150.0;
        let y = f.top - 14.0;
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/>",
            y - 9.0,
            PALETTE[i % PALETTE.len()]
        );
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{y:.1}\" {FONT} font-size=\"11\">{}</text>", x + 14.0, escape(s));
    }
}

/// Grouped bars: one group per subject, one bar per series. Jobs that did not end `ok` have
/// no value for counts; they get their outcome's initial (T, M, K, E) in place of a bar. Counts
/// (`integer`) are on a linear axis; other values on a logarithmic one when they span two
/// decades or more.
pub fn grouped_bars(
    records: &[&JobRecord],
    title: &str,
    y_label: &str,
    integer: bool,
    value: &dyn Fn(&JobRecord) -> Option<f64>,
) -> String {
    let subjects: Vec<String> =
        records.iter().map(|r| r.subject.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let series: Vec<String> = records.iter().map(|r| series_of(r)).collect::<BTreeSet<_>>().into_iter().collect();
    let by_key: BTreeMap<(String, String), &JobRecord> =
        records.iter().map(|r| ((r.subject.clone(), series_of(r)), *r)).collect();
    let bar_w = 9.0;
    let group_w = bar_w * series.len() as f64 + 10.0;
    // Wide enough for the bars and for the legend's row of series names.
    let plot_w = (group_w * subjects.len() as f64).max(150.0 * series.len() as f64).max(300.0);
    let f = Frame { width: plot_w + 90.0, height: 420.0, left: 60.0, top: 60.0, plot_w, plot_h: 250.0 };
    let mut out = String::new();
    header(&mut out, &f, title, None);
    let values: Vec<f64> = records.iter().filter_map(|r| value(r)).collect();
    let scale = Scale::fit(&values, integer, !integer);
    y_axis(&mut out, &f, scale, y_label);
    legend(&mut out, &f, &series);
    for (gi, subject) in subjects.iter().enumerate() {
        let gx = f.left + gi as f64 * group_w + 5.0;
        for (si, s) in series.iter().enumerate() {
            let Some(r) = by_key.get(&(subject.clone(), s.clone())) else { continue };
            let x = gx + si as f64 * bar_w;
            match value(r) {
                Some(v) => {
                    let h = scale.frac(v) * f.plot_h;
                    let _ = writeln!(
                        out,
                        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\" fill=\"{}\"><title>{} {}: {}</title></rect>",
                        f.top + f.plot_h - h,
                        bar_w - 1.0,
                        PALETTE[si % PALETTE.len()],
                        escape(subject),
                        escape(s),
                        fmt_value(v)
                    );
                }
                None => {
                    let mark = match r.outcome.as_str() {
                        "timeout" => "T",
                        "memory-out" => "M",
                        "killed" => "K",
                        _ => "E",
                    };
                    let _ = writeln!(
                        out,
                        "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"9\" text-anchor=\"middle\" fill=\"{}\">{mark}</text>",
                        x + bar_w / 2.0,
                        f.top + f.plot_h - 2.0,
                        PALETTE[si % PALETTE.len()]
                    );
                }
            }
        }
        let lx = gx + group_w / 2.0 - 5.0;
        let ly = f.top + f.plot_h + 10.0;
        let _ = writeln!(
            out,
            "<text transform=\"translate({lx:.1} {ly:.1}) rotate(60)\" {FONT} font-size=\"10\">{}</text>",
            escape(subject)
        );
    }
    out.push_str("</svg>\n");
    out
}

fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}

/// When each divergence of a job was found, in seconds from the engine's start (each test's
/// `time_s`). Records of an older penumbra lack it: their divergences are spread evenly over
/// the engine's wall time in the order they were written (the order the engine found them).
/// Returns the times and whether any was approximated.
fn divergence_times(r: &JobRecord) -> (Vec<f64>, bool) {
    let wall = r.summary.as_ref().map_or(r.wall_s, |s| s.wall_s);
    let divs: Vec<_> = r.tests.iter().filter(|t| t.kind == "divergence").collect();
    let n = divs.len() as f64;
    let mut approximated = false;
    let times = divs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.time_s.unwrap_or_else(|| {
                approximated = true;
                wall * (i as f64 + 1.0) / n
            })
        })
        .collect();
    (times, approximated)
}

/// Cumulative divergences over time, one step line per series, summed over the subjects
/// (every job's clock starts at 0, as if all subjects ran side by side).
pub fn cumulative(records: &[&JobRecord]) -> String {
    let mut per_series: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    let mut approximated = false;
    for r in records.iter().filter(|r| r.outcome == "ok") {
        let (times, approx) = divergence_times(r);
        approximated |= approx;
        per_series.entry(series_of(r)).or_default().extend(times);
    }
    for times in per_series.values_mut() {
        times.sort_by(f64::total_cmp);
    }
    let series: Vec<String> = per_series.keys().cloned().collect();
    let max_n = per_series.values().map(Vec::len).max().unwrap_or(0) as f64;
    let plot_w = (150.0 * series.len() as f64).max(620.0);
    let f = Frame { width: plot_w + 100.0, height: 420.0, left: 60.0, top: 60.0, plot_w, plot_h: 300.0 };
    let mut out = String::new();
    let subtitle =
        approximated.then_some("times approximated: each job's divergences spread evenly over its engine wall time");
    header(&mut out, &f, "Divergences found over time (all subjects)", subtitle);
    let y = Scale::fit(&[max_n], true, false);
    y_axis(&mut out, &f, y, "cumulative divergences");
    legend(&mut out, &f, &series);
    let all_times: Vec<f64> = per_series.values().flatten().copied().collect();
    let x = Scale::fit(&all_times, false, true);
    for (t, text) in x.ticks() {
        let at = f.left + x.frac(t) * f.plot_w;
        let _ = writeln!(
            out,
            "<text x=\"{at:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"middle\">{text}</text>",
            f.top + f.plot_h + 14.0
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"middle\">{}</text>",
        f.left + f.plot_w / 2.0,
        f.top + f.plot_h + 32.0,
        escape(&x.label("seconds since the job started"))
    );
    for (si, (_, times)) in per_series.iter().enumerate() {
        let px = |t: f64| f.left + x.frac(t) * f.plot_w;
        let py = |n: f64| f.top + f.plot_h - y.frac(n) * f.plot_h;
        let mut d = format!("M{:.1},{:.1}", f.left, py(0.0));
        for (i, &t) in times.iter().enumerate() {
            let _ = write!(d, " H{:.1} V{:.1}", px(t), py(i as f64 + 1.0));
        }
        let _ = write!(d, " H{:.1}", f.left + f.plot_w);
        let _ = writeln!(
            out,
            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>",
            PALETTE[si % PALETTE.len()]
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_over_several_decades_get_a_log_axis_and_counts_a_linear_one() {
        let log = Scale::fit(&[0.0, 0.0012, 0.05, 2.9], false, true);
        assert_eq!(log, Scale::Log { lo: -3, hi: 1 });
        let labels: Vec<String> = log.ticks().into_iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10"]);
        assert_eq!((log.frac(0.001), log.frac(0.1), log.frac(10.0)), (0.0, 0.5, 1.0));
        // A zero (a job that found nothing at once) sits at the axis start.
        assert_eq!(log.frac(0.0), 0.0);
        assert_eq!(log.label("seconds"), "seconds (log scale)");

        // Counts stay linear however wide they spread; so do times within two decades.
        let counts = Scale::fit(&[1.0, 153.0], true, false);
        assert_eq!(counts, Scale::Linear { top: 200.0, step: 50.0 });
        let labels: Vec<String> = counts.ticks().into_iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["0", "50", "100", "150", "200"]);
        assert_eq!(Scale::fit(&[0.5, 3.0], false, true), Scale::Linear { top: 3.0, step: 0.5 });
        assert_eq!(Scale::fit(&[2.0], true, false), Scale::Linear { top: 2.0, step: 1.0 });
    }
}
