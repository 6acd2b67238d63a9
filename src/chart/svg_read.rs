//! Tests' reading of a chart's SVG as a reader sees it: each label's words and the box they
//! take, rectangles with their colour, and lines. Text is measured as a browser draws it
//! (Arial's widths, [`super::text_width`], at the font size written), the box as tall as that
//! font size.

/// A label: its words and its box (left, top, right, bottom) in pixels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Label {
    pub text: String,
    pub fill: String,
    pub rect: (f64, f64, f64, f64),
}

impl Label {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, other: &Label) -> bool {
        let (a, b) = (self.rect, other.rect);
        a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
    }
}

/// A filled rectangle: its box and its fill colour and opacity.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rect {
    pub rect: (f64, f64, f64, f64),
    pub fill: String,
    pub opacity: f64,
    pub stroke: String,
}

/// A polyline: its stroke colour and points.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Polyline {
    pub stroke: String,
    pub width: f64,
    pub points: Vec<(f64, f64)>,
}

fn attr<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    let rest = &element[start..];
    Some(&rest[..rest.find('"')?])
}

fn number(element: &str, name: &str) -> f64 {
    attr(element, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

fn unescaped(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Every label in `svg`, in drawing order.
pub(crate) fn labels(svg: &str) -> Vec<Label> {
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let open = &rest[..rest.find('>')?];
            let body = &rest[rest.find('>')? + 1..];
            let text = unescaped(body[..body.find("</text>")?].trim());
            let size = number(open, "font-size");
            let (x, y) = (number(open, "x"), number(open, "y"));
            let bold = attr(open, "font-weight") == Some("bold");
            let width = super::text_width::width(&text, size, bold);
            let along = match attr(open, "text-anchor") {
                Some("middle") => (-width / 2.0, width / 2.0),
                Some("end") => (-width, 0.0),
                _ => (0.0, width),
            };
            let across = match attr(open, "dy") {
                Some("0.76em") => (0.0, size),
                Some("0.5ex") => (-size / 2.0, size / 2.0),
                _ => (-size, 0.0),
            };
            // Rotated a quarter turn back (a y axis' title): the text runs upwards.
            let rect = if attr(open, "transform").is_some_and(|t| t.starts_with("rotate(270")) {
                (x + across.0, y - along.1, x + across.1, y - along.0)
            } else {
                (x + along.0, y + across.0, x + along.1, y + across.1)
            };
            Some(Label {
                text,
                fill: attr(open, "fill").unwrap_or_default().to_string(),
                rect,
            })
        })
        .collect()
}

/// Every rectangle in `svg`, in drawing order.
pub(crate) fn rects(svg: &str) -> Vec<Rect> {
    svg.split("<rect")
        .skip(1)
        .filter_map(|rest| {
            let open = &rest[..rest.find('>')?];
            let (x, y) = (number(open, "x"), number(open, "y"));
            let (w, h) = (number(open, "width"), number(open, "height"));
            Some(Rect {
                rect: (x, y, x + w, y + h),
                fill: attr(open, "fill").unwrap_or_default().to_string(),
                opacity: attr(open, "opacity").map_or(1.0, |o| o.parse().unwrap_or(1.0)),
                stroke: attr(open, "stroke").unwrap_or_default().to_string(),
            })
        })
        .collect()
}

/// Every polyline in `svg`, in drawing order.
pub(crate) fn polylines(svg: &str) -> Vec<Polyline> {
    svg.split("<polyline")
        .skip(1)
        .filter_map(|rest| {
            let open = &rest[..rest.find('>')?];
            let points = attr(open, "points")?
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            Some(Polyline {
                stroke: attr(open, "stroke").unwrap_or_default().to_string(),
                width: number(open, "stroke-width"),
                points,
            })
        })
        .collect()
}

/// The labels' boxes that share area, pair by pair (empty when none do).
pub(crate) fn overlapping(labels: &[Label]) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            if a.overlaps(b) {
                pairs.push((a.text.clone(), b.text.clone()));
            }
        }
    }
    pairs
}

/// The labels whose box is not inside a `width` × `height` area with `margin` to spare.
pub(crate) fn outside(labels: &[Label], (width, height): (u32, u32), margin: f64) -> Vec<Label> {
    let (w, h) = (f64::from(width), f64::from(height));
    labels
        .iter()
        .filter(|l| {
            let (left, top, right, bottom) = l.rect;
            left < margin - 0.5 || right > w - margin + 0.5 || top < -0.5 || bottom > h + 0.5
        })
        .cloned()
        .collect()
}

/// A colour as plotters writes it in SVG: "#RRGGBB".
pub(crate) fn hex(colour: plotters::style::RGBColor) -> String {
    let plotters::style::RGBColor(r, g, b) = colour;
    format!("#{r:02X}{g:02X}{b:02X}")
}
