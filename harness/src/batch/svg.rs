//! The batch plots, written directly as SVG text: diff paths per subject and wall time per
//! subject (grouped bars, one bar per mode/config), and the cumulative number of divergences
//! found over time (one step line per mode/config, summed over subjects).
//!
//! Hand-written SVG keeps the bytes deterministic (every number is printed with a fixed
//! number of decimals, every collection is ordered) and needs no font or plotting library.

use super::store::JobRecord;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

const PALETTE: [&str; 8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
const FONT: &str = "font-family=\"sans-serif\"";

/// A mode/config pair: one series in every plot.
fn series_of(r: &JobRecord) -> String {
    format!("{}/{}", r.mode, r.config)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks up to `max`.
fn tick_step(max: f64, target: f64) -> f64 {
    if max <= 0.0 {
        return 1.0;
    }
    let raw = max / target;
    let pow = 10f64.powf(raw.log10().floor());
    let m = raw / pow;
    let nice = if m <= 1.0 { 1.0 } else if m <= 2.0 { 2.0 } else if m <= 5.0 { 5.0 } else { 10.0 };
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
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"34\" {FONT} font-size=\"11\" text-anchor=\"middle\" fill=\"#555\">{}</text>", f.width / 2.0, escape(sub));
    }
}

/// The y axis from 0 to `max` with grid lines; returns the axis maximum (a whole tick).
fn y_axis(out: &mut String, f: &Frame, max: f64, label: &str, integer: bool) -> f64 {
    let step = tick_step(max, 6.0);
    // Counts have no half steps.
    let step = if integer { step.max(1.0) } else { step };
    let top = (max / step).ceil().max(1.0) * step;
    let mut v = 0.0;
    while v <= top + step / 2.0 {
        let y = f.top + f.plot_h - v / top * f.plot_h;
        let _ = writeln!(
            out,
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>",
            f.left,
            f.left + f.plot_w
        );
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"end\">{}</text>", f.left - 4.0, y + 4.0, fmt_tick(v, step));
        v += step;
    }
    let _ = writeln!(
        out,
        "<text transform=\"translate(14 {:.1}) rotate(-90)\" {FONT} font-size=\"11\" text-anchor=\"middle\">{}</text>",
        f.top + f.plot_h / 2.0,
        escape(label)
    );
    let _ = writeln!(
        out,
        "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"black\"/>",
        f.left,
        f.top + f.plot_h,
        f.left + f.plot_w,
        f.top + f.plot_h
    );
    top
}

fn legend(out: &mut String, f: &Frame, series: &[String]) {
    for (i, s) in series.iter().enumerate() {
        let x = f.left + 10.0 + (i as f64) * 150.0;
        let y = f.top - 14.0;
        let _ = writeln!(out, "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/>", y - 9.0, PALETTE[i % PALETTE.len()]);
        let _ = writeln!(out, "<text x=\"{:.1}\" y=\"{y:.1}\" {FONT} font-size=\"11\">{}</text>", x + 14.0, escape(s));
    }
}

/// Grouped bars: one group per subject, one bar per series. Jobs that did not end `ok` have
/// no value for counts; they get their outcome's initial (T, M, E) in place of a bar.
pub fn grouped_bars(
    records: &[&JobRecord],
    title: &str,
    y_label: &str,
    integer: bool,
    value: &dyn Fn(&JobRecord) -> Option<f64>,
) -> String {
    let subjects: Vec<String> = records.iter().map(|r| r.subject.clone()).collect::<BTreeSet<_>>().into_iter().collect();
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
    let max = records.iter().filter_map(|r| value(r)).fold(0.0, f64::max);
    let top = y_axis(&mut out, &f, max, y_label, integer);
    legend(&mut out, &f, &series);
    for (gi, subject) in subjects.iter().enumerate() {
        let gx = f.left + gi as f64 * group_w + 5.0;
        for (si, s) in series.iter().enumerate() {
            let Some(r) = by_key.get(&(subject.clone(), s.clone())) else { continue };
            let x = gx + si as f64 * bar_w;
            match value(r) {
                Some(v) => {
                    let h = v / top * f.plot_h;
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
    let wall = r.summary.as_ref().and_then(|s| s["wall_s"].as_f64()).unwrap_or(r.wall_s);
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
    let max_t = per_series.values().flat_map(|t| t.last().copied()).fold(0.0, f64::max);
    let max_n = per_series.values().map(Vec::len).max().unwrap_or(0) as f64;
    let plot_w = (150.0 * series.len() as f64).max(620.0);
    let f = Frame { width: plot_w + 100.0, height: 420.0, left: 60.0, top: 60.0, plot_w, plot_h: 300.0 };
    let mut out = String::new();
    let subtitle = approximated.then_some("times approximated: each job's divergences spread evenly over its engine wall time");
    header(&mut out, &f, "Divergences found over time (all subjects)", subtitle);
    let top_n = y_axis(&mut out, &f, max_n, "cumulative divergences", true);
    legend(&mut out, &f, &series);
    let step = tick_step(max_t, 6.0);
    let top_t = (max_t / step).ceil().max(1.0) * step;
    let mut t = 0.0;
    while t <= top_t + step / 2.0 {
        let x = f.left + t / top_t * f.plot_w;
        let _ = writeln!(out, "<text x=\"{x:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"middle\">{}</text>", f.top + f.plot_h + 14.0, fmt_tick(t, step));
        t += step;
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} font-size=\"11\" text-anchor=\"middle\">seconds since the job started</text>",
        f.left + f.plot_w / 2.0,
        f.top + f.plot_h + 32.0
    );
    for (si, (_, times)) in per_series.iter().enumerate() {
        let px = |t: f64| f.left + t / top_t * f.plot_w;
        let py = |n: f64| f.top + f.plot_h - n / top_n * f.plot_h;
        let mut d = format!("M{:.1},{:.1}", px(0.0), py(0.0));
        for (i, &t) in times.iter().enumerate() {
            let _ = write!(d, " H{:.1} V{:.1}", px(t), py(i as f64 + 1.0));
        }
        let _ = write!(d, " H{:.1}", px(top_t));
        let _ = writeln!(out, "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>", PALETTE[si % PALETTE.len()]);
    }
    out.push_str("</svg>\n");
    out
}
