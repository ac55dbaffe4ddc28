//! A study's report: its statistics ([`crate::analysis`]), the piece-value fit
//! ([`crate::fit`]) and SVG plots drawn with `plotters` (SVG backend, text
//! as SVG `<text>`: no font file is read). [`html`] writes one
//! self-contained HTML file; [`markdown`] a summary for `docs/lab/`.

use crate::analysis::Replayed;
use crate::analysis::{self, StudyStats};
use crate::fit::Fit;
use crate::spec::StudySpec;
use crate::stats::Est;
use crate::store::{self, Db};
use crate::LabError;
use plotters::prelude::*;
use serde::Serialize;

/// Passes of the tuner's local search in a report's fit.
pub const FIT_PASSES: usize = 12;

/// Everything a report shows.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub id: String,
    pub spec: StudySpec,
    pub description: String,
    pub engine: String,
    pub games_target: u64,
    pub stats: StudyStats,
    pub fit: Option<Fit>,
    /// Why there is no fit, or that it is older than the games.
    pub fit_note: Option<String>,
}

/// Fits the piece values now (the engine's tuner: the `play` feature).
#[cfg(feature = "play")]
fn fit_now(games: &[Replayed], threads: usize) -> Result<Option<Fit>, LabError> {
    Ok(crate::fit::fit(games, threads, FIT_PASSES))
}

#[cfg(not(feature = "play"))]
fn fit_now(_: &[Replayed], _: usize) -> Result<Option<Fit>, LabError> {
    Err(LabError::BadInput("this build of the lab cannot fit piece values (its `play` feature is off)".into()))
}

/// Builds the report of study `id`. With `do_fit` the piece values are
/// fitted now (slow: a few minutes for 2,000 games) and kept in the store;
/// without, the kept fit is shown if there is one.
pub async fn build(db: &Db, id: &str, do_fit: bool, threads: usize) -> Result<Report, LabError> {
    let study = store::get_study(db, id).await?;
    let rows = store::load_games(db, id).await?;
    // Replaying every game through the rules is CPU work (a second or so
    // for thousands of games): off the async workers, so a server answering
    // `/lab/{id}` keeps serving games meanwhile.
    let spec = study.spec.clone();
    let (games, st) = tokio::task::spawn_blocking(move || {
        let games = analysis::replay(&spec, rows)?;
        let st = analysis::compute(&games);
        Ok::<_, LabError>((games, st))
    })
    .await
    .map_err(|e| LabError::Store(format!("replaying the study's games failed: {e}")))??;
    let (mut fit, mut fit_note) = (None, None);
    if do_fit {
        fit = fit_now(&games, threads)?;
        match &fit {
            Some(f) => {
                let json = serde_json::to_string(f).map_err(|e| LabError::Store(e.to_string()))?;
                store::save_fit(db, id, games.len() as u64, &json).await?;
            }
            None => fit_note = Some("no fit: the games hold no usable position".into()),
        }
    } else {
        match store::load_fit(db, id).await? {
            Some((n, json)) => {
                fit = serde_json::from_str(&json).ok();
                if n != games.len() as u64 {
                    fit_note =
                        Some(format!("the fit was made from {n} games; `chimera lab report {id}` makes it again"));
                }
            }
            None => fit_note = Some(format!("no piece-value fit yet: `chimera lab report {id}` makes it")),
        }
    }
    Ok(Report {
        id: study.id.clone(),
        description: study.spec.describe(),
        spec: study.spec,
        engine: study.engine,
        games_target: study.games_target,
        stats: st,
        fit,
        fit_note,
    })
}

const W: u32 = 640;
const BLUE: RGBColor = RGBColor(52, 101, 164);
const GREY: RGBColor = RGBColor(120, 120, 120);

/// Adds a `viewBox` so that the SVG scales to the width of a phone.
fn scalable(svg: String, w: u32, h: u32) -> String {
    // plotters' SVG backend writes a viewBox of its own (0.3.7); a second
    // one would make the file invalid XML (browsers refuse a lone .svg).
    let root_end = svg.find('>').unwrap_or(svg.len());
    if svg[..root_end].contains("viewBox=") {
        return svg;
    }
    svg.replacen("<svg ", &format!("<svg viewBox=\"0 0 {w} {h}\" preserveAspectRatio=\"xMidYMid meet\" "), 1)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

fn draw<F>(h: u32, f: F) -> String
where
    F: for<'a, 'b> FnOnce(&'b Area<'a>) -> Result<(), Box<dyn std::error::Error + 'b>>,
{
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (W, h)).into_drawing_area();
        let ok = root.fill(&WHITE).is_ok() && f(&root).is_ok();
        if !ok || root.present().is_err() {
            drop(root);
            return format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"40\"><text x=\"4\" y=\"24\">plot failed</text></svg>");
        }
    }
    scalable(s, W, h)
}

/// Horizontal bars with 95% whiskers, one row a label; values are shares
/// (0..1) shown as percent; `reference` draws a dashed vertical line.
pub fn forest(title: &str, axis: &str, rows: &[(String, Est)], reference: Option<f64>) -> String {
    let n = rows.len().max(1);
    let h = 70 + 26 * n as u32;
    let max = rows.iter().map(|r| r.1.upper).fold(0.0f64, f64::max).max(reference.unwrap_or(0.0));
    let xmax = ((max * 10.0).ceil() / 10.0).clamp(0.1, 1.0);
    draw(h, |root| {
        let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
        let label_w = names.iter().map(|s| s.chars().count()).max().unwrap_or(4).clamp(4, 34) as u32 * 7 + 10;
        // Room on the right for the last label ("100%") to be whole.
        let mut c = ChartBuilder::on(root)
            .caption(title, ("sans-serif", 18))
            .margin(8)
            .margin_right(24)
            .x_label_area_size(32)
            .y_label_area_size(label_w)
            .build_cartesian_2d(0f64..xmax, -0.5f64..n as f64 - 0.5)?;
        c.configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .x_desc(axis)
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .y_label_formatter(&|y| {
                let i = y.round() as i64;
                if (y - i as f64).abs() < 1e-6 && i >= 0 && (i as usize) < names.len() {
                    // Row 0 at the top.
                    names[names.len() - 1 - i as usize].chars().take(34).collect()
                } else {
                    String::new()
                }
            })
            .label_style(("sans-serif", 13))
            .draw()?;
        for (i, (_, e)) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            c.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.3), (e.value, y + 0.3)],
                BLUE.mix(0.45).filled(),
            )))?;
            c.draw_series(std::iter::once(PathElement::new(vec![(e.lower, y), (e.upper, y)], BLACK.stroke_width(2))))?;
            for x in [e.lower, e.upper] {
                c.draw_series(std::iter::once(PathElement::new(
                    vec![(x, y - 0.15), (x, y + 0.15)],
                    BLACK.stroke_width(2),
                )))?;
            }
        }
        if let Some(r) = reference {
            c.draw_series(std::iter::once(PathElement::new(
                vec![(r, -0.5), (r, n as f64 - 0.5)],
                GREY.stroke_width(1),
            )))?;
        }
        Ok(())
    })
}

/// Histogram of game lengths (plies), bins of 10 plies.
pub fn lengths_plot(lengths: &[u64]) -> String {
    let max = lengths.iter().copied().max().unwrap_or(10);
    let bins = (max / 10 + 1) as usize;
    let mut counts = vec![0u64; bins];
    for &l in lengths {
        counts[(l / 10) as usize] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    // Games are counted in whole numbers: the axis is of integers, with a
    // tenth of headroom (at least one), so its labels are whole and
    // distinct however few the games.
    let ymax = top + (top / 10).max(1);
    draw(320, |root| {
        let mut c = ChartBuilder::on(root)
            .caption("Game length", ("sans-serif", 18))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..(bins * 10) as f64, 0u64..ymax)?;
        c.configure_mesh()
            .x_desc("plies")
            .y_desc("games")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_labels((ymax as usize + 1).min(11))
            .label_style(("sans-serif", 13))
            .draw()?;
        c.draw_series(counts.iter().enumerate().map(|(i, &k)| {
            Rectangle::new([((i * 10) as f64, 0u64), ((i * 10 + 9) as f64, k)], BLUE.mix(0.6).filled())
        }))?;
        Ok(())
    })
}

/// The typical game's evaluation curve (White's view, clipped to ±1500 cp).
pub fn eval_plot(k: u64, result: &str, opening: usize, scores: &[i32]) -> String {
    draw(320, |root| {
        let n = (opening + scores.len()).max(1) as f64;
        let mut c = ChartBuilder::on(root)
            .caption(format!("A typical game (no. {}, {result}): the engine's evaluation", k + 1), ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..n, -1500f64..1500f64)?;
        c.configure_mesh()
            .x_desc("ply")
            .y_desc("centipawns for White")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(("sans-serif", 13))
            .draw()?;
        c.draw_series(LineSeries::new(
            scores.iter().enumerate().map(|(i, &s)| ((opening + i + 1) as f64, s.clamp(-1500, 1500) as f64)),
            BLUE.stroke_width(2),
        ))?;
        c.draw_series(std::iter::once(PathElement::new(vec![(0.0, 0.0), (n, 0.0)], GREY.stroke_width(1))))?;
        Ok(())
    })
}

/// Fitted piece values against the engine's, midgame values, with ± 2 ×
/// the half-sample spread as whiskers.
pub fn fit_plot(f: &Fit) -> String {
    let rows: Vec<_> = f.values.iter().filter(|v| !v.name.ends_with(".eg")).collect();
    let n = rows.len().max(1);
    let h = 80 + 26 * n as u32;
    let max = rows.iter().map(|v| v.fitted.max(v.start) as f64 + 2.0 * v.spread()).fold(100.0f64, f64::max);
    let min = rows.iter().map(|v| v.fitted.min(v.start) as f64 - 2.0 * v.spread()).fold(0.0f64, f64::min);
    draw(h, |root| {
        let names: Vec<String> = rows.iter().map(|v| v.label.replace(" (midgame)", "")).collect();
        let mut c = ChartBuilder::on(root)
            .caption("Fitted values (midgame), bar; the engine's, dot", ("sans-serif", 16))
            .margin(8)
            .x_label_area_size(32)
            .y_label_area_size(200)
            .build_cartesian_2d(min..max * 1.05, -0.5f64..n as f64 - 0.5)?;
        c.configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .x_desc("centipawns")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| {
                let i = y.round() as i64;
                if (y - i as f64).abs() < 1e-6 && i >= 0 && (i as usize) < names.len() {
                    names[names.len() - 1 - i as usize].chars().take(30).collect()
                } else {
                    String::new()
                }
            })
            .label_style(("sans-serif", 12))
            .draw()?;
        for (i, v) in rows.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            let (a, b) = (v.fitted as f64 - 2.0 * v.spread(), v.fitted as f64 + 2.0 * v.spread());
            c.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.3), (v.fitted as f64, y + 0.3)],
                BLUE.mix(0.45).filled(),
            )))?;
            c.draw_series(std::iter::once(PathElement::new(vec![(a, y), (b, y)], BLACK.stroke_width(2))))?;
            c.draw_series(std::iter::once(Circle::new((v.start as f64, y), 4, RED.filled())))?;
        }
        Ok(())
    })
}

/// The report's plots: (file name without `.svg`, SVG).
pub fn plots(r: &Report) -> Vec<(String, String)> {
    let s = &r.stats;
    let mut out = vec![(
        "results".to_string(),
        forest(
            "Results (95% intervals)",
            "share of games; White's score",
            &[
                ("White's score".into(), s.white_score),
                ("White wins".into(), s.white_wins),
                ("draws".into(), s.draw_rate),
                ("Black wins".into(), s.black_wins),
            ],
            Some(0.5),
        ),
    )];
    out.push((
        "terminations".into(),
        forest(
            "How games end (95% intervals)",
            "share of games",
            &s.terminations.iter().map(|t| (t.0.clone(), t.2)).collect::<Vec<_>>(),
            None,
        ),
    ));
    out.push(("lengths".into(), lengths_plot(&s.lengths)));
    let firsts: Vec<_> =
        s.by_first_move.iter().take(12).map(|f| (format!("{} ({} games)", f.san, f.score.n), f.score)).collect();
    if !firsts.is_empty() {
        out.push((
            "first-moves".into(),
            forest("White's score by first move (most played)", "White's score", &firsts, Some(0.5)),
        ));
    }
    let special: Vec<(String, Est)> = s
        .special
        .iter()
        .flat_map(|u| {
            [(format!("{}: used", u.kind), u.user_score), (format!("{}: not used", u.kind), u.non_user_score)]
        })
        .filter(|r| r.1.n > 0)
        .collect();
    if !special.is_empty() {
        out.push((
            "special-moves".into(),
            forest("Score of a side that used a special move, or not", "the side's score", &special, Some(0.5)),
        ));
    }
    if let Some((k, res, opening, scores)) = &s.typical {
        out.push(("eval-curve".into(), eval_plot(*k, res, *opening, scores)));
    }
    if let Some(f) = &r.fit {
        out.push(("piece-values".into(), fit_plot(f)));
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The report as Markdown tables. With `images = Some(prefix)` the plots
/// are linked as `prefix + name + .svg` images.
pub fn markdown(r: &Report, images: Option<&str>) -> String {
    let s = &r.stats;
    let img = |name: &str| images.map(|p| format!("\n![{name}]({p}{name}.svg)\n")).unwrap_or_default();
    let mut m = format!(
        "# Study `{}`\n\n{}.\n\nEngine: {}. Games: {} of {}.\n\n",
        r.id, r.description, r.engine, s.games, r.games_target
    );
    m.push_str("Every rate is given with its 95% interval: Wilson for proportions, the trinomial normal approximation for scores.\n\n");
    m.push_str("## Results\n\n| | value [95% interval] |\n| --- | --- |\n");
    m.push_str(&format!("| White's score | {} |\n", s.white_score.pct()));
    m.push_str(&format!("| White wins | {} ({}) |\n", s.white_wins.pct(), s.wdl.0));
    m.push_str(&format!("| draws | {} ({}) |\n", s.draw_rate.pct(), s.wdl.1));
    m.push_str(&format!("| Black wins | {} ({}) |\n", s.black_wins.pct(), s.wdl.2));
    m.push_str(&format!("| decisive games | {} |\n", s.decisive_rate.pct()));
    m.push_str(&img("results"));
    m.push_str("\n## Terminations\n\n| termination | games | share [95%] |\n| --- | --- | --- |\n");
    for (t, c, e) in &s.terminations {
        m.push_str(&format!("| {t} | {c} | {} |\n", e.pct()));
    }
    m.push_str(&img("terminations"));
    m.push_str(&format!(
        "\n## Game length\n\nPlies (random opening included): mean {:.1}, median {:.0}, 10th percentile {:.0}, 90th {:.0}.\n",
        s.length_mean, s.length_median, s.length_p10, s.length_p90
    ));
    m.push_str(&img("lengths"));
    m.push_str("\n## Score by first move\n\nThe first move is one of the random opening plies, so every legal first move is a fair draw. The 12 most played:\n\n| first move | games | +/=/− | White's score [95%] |\n| --- | --- | --- | --- |\n");
    for f in s.by_first_move.iter().take(12) {
        m.push_str(&format!(
            "| {} | {} | {}/{}/{} | {} |\n",
            f.san,
            f.score.n,
            f.wdl.0,
            f.wdl.1,
            f.wdl.2,
            f.score.pct()
        ));
    }
    m.push_str(&img("first-moves"));
    m.push_str("\n## Special moves\n\nEngine moves only (not the random opening). Phases: opening = plies 1–20, middlegame 21–60, endgame 61 on. The score of a side that used the move at least once in a game, against a side that did not, with a two-sided test of the difference.\n\n| move | opening | middlegame | endgame | per game | games using it [95%] | score when used [95%] | score when not [95%] | difference |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for u in &s.special {
        m.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {} | {} | {} | {:+.1}%, p = {:.3} ({}) |\n",
            u.kind,
            u.by_phase[0],
            u.by_phase[1],
            u.by_phase[2],
            u.per_game,
            u.games_used.pct(),
            u.user_score.pct(),
            u.non_user_score.pct(),
            100.0 * u.test.diff,
            u.test.p,
            u.test.verdict()
        ));
    }
    m.push_str(&img("special-moves"));
    if !s.placement_order.is_empty() {
        m.push_str("\n### Placement order\n\nWhere each piece comes in its side's order of placements (1 = first; the first two placements of each side are in the random opening, and the King's is forced first).\n\n| piece | placed | mean place in the order | share placed in the first 8 |\n| --- | --- | --- | --- |\n");
        for p in &s.placement_order {
            m.push_str(&format!(
                "| {} | {} | {:.2} | {:.1}% |\n",
                p.role,
                p.placed,
                p.mean_index,
                100.0 * p.early_share
            ));
        }
    }
    if s.typical.is_some() {
        m.push_str("\n## A typical game\n\nThe game whose length is nearest the median; the engine's evaluation after each of its moves.\n");
        m.push_str(&img("eval-curve"));
    }
    m.push_str("\n## Piece values fitted from the games\n\n");
    if let Some(n) = &r.fit_note {
        m.push_str(&format!("{n}.\n\n"));
    }
    if let Some(f) = &r.fit {
        m.push_str(&format!(
            "The engine's tuner (Texel's method) fitted to {} training positions of {} games ({} held-out positions), K = {:.3}, {} passes, prior {}. Mean squared error: training {:.5} → {:.5}, held out {:.5} → {:.5}{}. ± is half the gap between the fits on the even and the odd games (a rough standard error; the plot's whiskers are ± 2 of it).\n\n| value | engine | fitted | ± | halves |\n| --- | --- | --- | --- | --- |\n",
            f.positions,
            f.games,
            f.validation_positions,
            f.k,
            f.passes,
            f.prior,
            f.train_error.0,
            f.train_error.1,
            f.validation_error.0,
            f.validation_error.1,
            if f.validation_error.1 < f.validation_error.0 { " (the fit generalises)" } else { " (the held-out games are not predicted better: the fit does not generalise; read the values as noise)" }
        ));
        for v in &f.values {
            m.push_str(&format!(
                "| {} | {} | {} | {:.0} | {} / {} |\n",
                v.label,
                v.start,
                v.fitted,
                v.spread(),
                v.half_a,
                v.half_b
            ));
        }
        m.push_str(&img("piece-values"));
    }
    m
}

/// The report as one self-contained HTML page (inline CSS and SVG, no script).
pub fn html(r: &Report) -> String {
    let mut body = String::new();
    let plots = plots(r);
    let md = markdown(r, None);
    // The Markdown's tables, rendered simply: headings, paragraphs and tables.
    let mut in_table = false;
    let mut after_header = false;
    for line in md.lines() {
        if line.starts_with('|') {
            if line.starts_with("| ---") {
                after_header = true;
                continue;
            }
            if !in_table {
                body.push_str("<div class=\"scroll\"><table>");
                in_table = true;
                after_header = false;
            }
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            let tag = if after_header { "td" } else { "th" };
            body.push_str("<tr>");
            for c in cells {
                body.push_str(&format!("<{tag}>{}</{tag}>", inline(c)));
            }
            body.push_str("</tr>");
            continue;
        }
        if in_table {
            body.push_str("</table></div>\n");
            in_table = false;
            // The plot that belongs to the table just closed.
        }
        if let Some(h) = line.strip_prefix("### ") {
            body.push_str(&format!("<h3>{}</h3>\n", inline(h)));
        } else if let Some(h) = line.strip_prefix("## ") {
            body.push_str(&format!("<h2>{}</h2>\n", inline(h)));
            let key = match h {
                "Results" => Some("results"),
                "Terminations" => Some("terminations"),
                "Game length" => Some("lengths"),
                "Score by first move" => Some("first-moves"),
                "Special moves" => Some("special-moves"),
                "A typical game" => Some("eval-curve"),
                "Piece values fitted from the games" => Some("piece-values"),
                _ => None,
            };
            if let Some((_, svg)) = key.and_then(|k| plots.iter().find(|p| p.0 == k)) {
                body.push_str(&format!("<figure>{svg}</figure>\n"));
            }
        } else if let Some(h) = line.strip_prefix("# ") {
            body.push_str(&format!("<h1>{}</h1>\n", inline(h)));
        } else if !line.trim().is_empty() {
            body.push_str(&format!("<p>{}</p>\n", inline(line)));
        }
    }
    if in_table {
        body.push_str("</table></div>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>Chimera lab: {}</title><style>{CSS}</style></head><body><main>\n{body}</main></body></html>\n",
        esc(&r.id)
    )
}

/// Inline Markdown of the summary: `code` only, the rest escaped.
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", esc(part)));
        } else {
            out.push_str(&esc(part));
        }
    }
    out
}

/// The report page's style (also used by the server's `/lab` page).
pub const CSS: &str = "body{font-family:system-ui,sans-serif;margin:0;background:#fafafa;color:#222}\
main{max-width:760px;margin:0 auto;padding:12px}\
figure{margin:8px 0}svg{max-width:100%;height:auto;background:#fff}\
.scroll{overflow-x:auto}table{border-collapse:collapse;font-size:14px;margin:8px 0}\
th,td{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#eee}\
code{background:#eee;padding:0 3px}a{color:#3465a4}";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every plot's root element has one viewBox (two are invalid XML, and
    /// a browser then refuses the .svg file), and the SVG is closed.
    #[test]
    fn plots_are_well_formed_and_scalable() {
        let rows = vec![("a".to_string(), crate::stats::wilson(3, 10)), ("b".to_string(), crate::stats::wilson(7, 10))];
        for svg in [
            forest("t", "x", &rows, Some(0.5)),
            lengths_plot(&[10, 25, 31, 80]),
            eval_plot(0, "1-0", 4, &[10, -20, 300]),
        ] {
            let root = &svg[..svg.find('>').unwrap()];
            assert_eq!(root.matches("viewBox=").count(), 1, "{root}");
            assert!(svg.trim_end().ends_with("</svg>"));
        }
    }

    /// The texts of an SVG's right-aligned `<text>` elements: a chart's
    /// y-axis labels.
    fn y_labels(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter(|t| t[..t.find('>').unwrap_or(0)].contains("text-anchor=\"end\""))
            .filter_map(|t| Some(t[t.find('>')? + 1..t.find("</text>")?].trim().to_string()))
            .collect()
    }

    /// A few games: the count axis reads distinct whole numbers (it read
    /// "1, 1, 1, 0, 0, 0" with one game a bin).
    #[test]
    fn the_length_axis_counts_whole_games() {
        for lengths in [vec![10, 25, 31, 80], vec![40], vec![12, 14, 16, 18, 41]] {
            let labels = y_labels(&lengths_plot(&lengths));
            assert!(labels.len() >= 2, "{lengths:?}: {labels:?}");
            let mut seen = std::collections::HashSet::new();
            for t in &labels {
                assert!(t.parse::<u64>().is_ok(), "{lengths:?}: a count that is not a whole number: {t} in {labels:?}");
                assert!(seen.insert(t.clone()), "{lengths:?}: the count {t} twice in {labels:?}");
            }
        }
    }
}
