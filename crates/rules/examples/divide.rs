use chimera_rules::*;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v: Variant = a[1].parse().unwrap();
    let pos = AnyPosition::from_fen(v, &a[2], &RuleOptions::default()).unwrap();
    let d: u32 = a[3].parse().unwrap();
    for (m, n) in pos.divide(d) {
        println!("{m} {n}");
    }
}
