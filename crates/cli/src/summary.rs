//! Plain-text tables for multi-file runs and benchmarks.

/// A table with a header row, printed with columns padded to their widest cell.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: vec![],
        }
    }

    /// Appends a row (missing cells print empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Renders the table.
    pub fn render(&self) -> String {
        let n = self.header.len();
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| -> String {
            let mut s = String::new();
            for (i, w) in widths.iter().enumerate().take(n) {
                let c = cells.get(i).map(String::as_str).unwrap_or("");
                s.push_str(c);
                if i + 1 < n {
                    s.push_str(&" ".repeat(w - c.chars().count() + 2));
                }
            }
            s.trim_end().to_string()
        };
        let mut out = line(&self.header);
        out.push('\n');
        let total: usize = widths.iter().sum::<usize>() + 2 * n.saturating_sub(1);
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn columns_align() {
        let mut t = Table::new(&["a", "bbb"]);
        t.row(vec!["xxxx".into(), "y".into()]);
        assert_eq!(t.render(), "a     bbb\n---------\nxxxx  y\n");
    }
}
