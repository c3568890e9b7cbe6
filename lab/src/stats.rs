//! Statistics for the balance lab: pure functions over numbers, no I/O.
//!
//! Intervals are two-sided 95%: Wilson score intervals for proportions (good at 0 and at n, where
//! the textbook normal interval collapses), Student-t intervals for means and for paired
//! differences (the games are few, so the t quantile, not 1.96).

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Interval {
    /// Half its width.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }

    /// True if `x` lies inside (bounds included).
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// The 95% Wilson score interval for `k` successes in `n` trials; `[0, 1]` when `n` is 0.
pub fn wilson(k: usize, n: usize) -> Interval {
    if n == 0 {
        return Interval { lo: 0.0, hi: 1.0 };
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // at 0 and at n the bounds are exactly 0 and 1; say so rather than leave rounding
    Interval {
        lo: if k == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        hi: if k as f64 == n {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// Mean, sample standard deviation and the 95% t interval of the mean of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanCi {
    /// Sample size.
    pub n: usize,
    /// Mean (0 for an empty sample).
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 below two values).
    pub sd: f64,
    /// 95% interval of the mean; `None` below two values.
    pub ci: Option<Interval>,
}

/// Mean, standard deviation and 95% interval of `xs`.
pub fn mean_ci(xs: &[f64]) -> MeanCi {
    let n = xs.len();
    if n == 0 {
        return MeanCi {
            n,
            mean: 0.0,
            sd: 0.0,
            ci: None,
        };
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return MeanCi {
            n,
            mean,
            sd: 0.0,
            ci: None,
        };
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let sd = var.sqrt();
    let half = t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
    MeanCi {
        n,
        mean,
        sd,
        ci: Some(Interval {
            lo: mean - half,
            hi: mean + half,
        }),
    }
}

/// About how many values (paired differences, say) with standard deviation `sd` make the 95%
/// interval of their mean no wider than ±`half`: the smallest n with t(n−1)·sd/√n ≤ half. `None`
/// if `half` is not positive; 2 at least (an interval needs two values).
pub fn games_for_half_width(sd: f64, half: f64) -> Option<u64> {
    if half <= 0.0 || !half.is_finite() || !sd.is_finite() {
        return None;
    }
    if sd == 0.0 {
        return Some(2);
    }
    // t(n−1)·sd/√n falls as n grows: find a bound that holds by doubling, then bisect
    let holds = |n: u64| t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt() <= half;
    let mut hi = ((Z95 * sd / half).powi(2).ceil() as u64).max(2);
    while !holds(hi) {
        hi = hi.saturating_mul(2);
        if hi == u64::MAX {
            return None;
        }
    }
    let mut lo = 1; // does not hold (or is below the two values an interval needs)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mid >= 2 && holds(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The `p` quantile of Student's t distribution with `df` degrees of freedom (`0 < p < 1`,
/// `df > 0`).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if p == 0.5 {
        return 0.0;
    }
    if p < 0.5 {
        return -t_quantile(1.0 - p, df);
    }
    // bisection on the distribution function: monotone, and 200 halvings are plenty
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while t_cdf(hi, df) < p && hi < 1e12 {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t_cdf(mid, df) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The distribution function of Student's t with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, x);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The regularized incomplete beta function I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln();
    let front = ln_front.exp();
    // the continued fraction converges fast on this side; use the symmetry on the other
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..500 {
        let m = m as f64;
        let m2 = 2.0 * m;
        // even step
        let num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + num / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        // odd step
        let num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + num / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The `q` quantile (0 ≤ q ≤ 1) of a sample, by linear interpolation between order statistics
/// (the "type 7" rule of R and NumPy's default). `None` for an empty sample.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    Some(v[lo] + (h - lo as f64) * (v[hi] - v[lo]))
}

/// Pearson's correlation of paired samples; `None` with fewer than 3 pairs or a constant sample.
pub fn pearson(xs: &[f64], ys: &[f64]) -> Option<f64> {
    let n = xs.len().min(ys.len());
    if n < 3 {
        return None;
    }
    let (xs, ys) = (&xs[..n], &ys[..n]);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / n as f64;
    let (mx, my) = (mean(xs), mean(ys));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some(sxy / (sxx * syy).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pearson_of_known_samples() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!(close(
            pearson(&x, &[2.0, 4.0, 6.0, 8.0]).unwrap_or(0.0),
            1.0,
            1e-12
        ));
        assert!(close(
            pearson(&x, &[8.0, 6.0, 4.0, 2.0]).unwrap_or(0.0),
            -1.0,
            1e-12
        ));
        // x against (1, 3, 2, 4): covariance 2.5 of variances 5 → 0.8
        assert!(close(
            pearson(&x, &[1.0, 3.0, 2.0, 4.0]).unwrap_or(0.0),
            0.8,
            1e-12
        ));
        assert_eq!(pearson(&x, &[1.0, 1.0, 1.0, 1.0]), None);
        assert_eq!(pearson(&x[..2], &x[..2]), None);
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_published_values() {
        // 0/10, 5/10, 10/10: the Wilson interval with z = 1.96 (as in Agresti & Coull's tables)
        let w = wilson(0, 10);
        assert_eq!(w.lo, 0.0);
        assert!(close(w.hi, 0.2775, 1e-4), "{w:?}");
        let w = wilson(5, 10);
        assert!(close(w.lo, 0.2366, 1e-4), "{w:?}");
        assert!(close(w.hi, 0.7634, 1e-4), "{w:?}");
        let w = wilson(10, 10);
        assert!(close(w.lo, 0.7225, 1e-4), "{w:?}");
        assert_eq!(w.hi, 1.0);
        let w = wilson(1, 20);
        assert!(close(w.lo, 0.0089, 1e-4), "{w:?}");
        assert!(close(w.hi, 0.2361, 1e-4), "{w:?}");
        assert_eq!(wilson(0, 0), Interval { lo: 0.0, hi: 1.0 });
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        for (df, t) in [
            (1.0, 12.7062),
            (2.0, 4.3027),
            (5.0, 2.5706),
            (10.0, 2.2281),
            (30.0, 2.0423),
            (120.0, 1.9799),
            (1e6, 1.9600),
        ] {
            let q = t_quantile(0.975, df);
            assert!(close(q, t, 1e-4), "df {df}: {q} vs {t}");
        }
        assert!(close(t_quantile(0.95, 10.0), 1.8125, 1e-4));
        assert!(close(t_quantile(0.025, 10.0), -2.2281, 1e-4));
        assert_eq!(t_quantile(0.5, 3.0), 0.0);
        assert!(close(t_cdf(0.0, 7.0), 0.5, 1e-12));
    }

    #[test]
    fn mean_interval_of_a_known_sample() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sd √(32/7) = 2.1381, t(7) = 2.3646
        let m = mean_ci(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m.n, 8);
        assert!(close(m.mean, 5.0, 1e-12));
        assert!(close(m.sd, 2.13809, 1e-5), "{m:?}");
        let ci = m.ci.expect("interval");
        let half = 2.36462 * 2.13809 / 8f64.sqrt();
        assert!(close(ci.lo, 5.0 - half, 1e-3), "{ci:?}");
        assert!(close(ci.hi, 5.0 + half, 1e-3), "{ci:?}");
        assert!(mean_ci(&[3.0]).ci.is_none());
        assert_eq!(mean_ci(&[]).n, 0);
        // no spread, no width
        let flat = mean_ci(&[4.0, 4.0, 4.0]).ci.expect("interval");
        assert_eq!((flat.lo, flat.hi), (4.0, 4.0));
    }

    #[test]
    fn games_needed_for_a_half_width() {
        // sd 46 and ±5 VP: (1.96·46/5)² ≈ 325, a little more with t
        let n = games_for_half_width(46.0, 5.0).expect("n");
        assert!((326..=330).contains(&n), "{n}");
        let t = t_quantile(0.975, (n - 1) as f64);
        assert!(t * 46.0 / (n as f64).sqrt() <= 5.0);
        assert!(t_quantile(0.975, (n - 2) as f64) * 46.0 / ((n - 1) as f64).sqrt() > 5.0);
        assert_eq!(games_for_half_width(0.0, 5.0), Some(2));
        assert_eq!(games_for_half_width(10.0, 0.0), None);
        // few games: the t quantile matters (sd 1, ±1: n = 7, since t(6)·1/√7 = 0.925)
        assert_eq!(games_for_half_width(1.0, 1.0), Some(7));
        // sd 2.3: ±10 needs 3 (t(2)·2.3/√3 = 5.7), ±5 needs 4 (t(3)·2.3/2 = 3.66)
        assert_eq!(games_for_half_width(2.3, 10.0), Some(3));
        assert_eq!(games_for_half_width(2.3, 5.0), Some(4));
    }

    #[test]
    fn quantiles_interpolate() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&xs, 0.0), Some(1.0));
        assert_eq!(quantile(&xs, 1.0), Some(4.0));
        assert_eq!(quantile(&xs, 0.5), Some(2.5));
        assert_eq!(quantile(&[4.0, 1.0, 3.0, 2.0], 0.25), Some(1.75));
        assert_eq!(quantile(&[], 0.5), None);
    }
}
