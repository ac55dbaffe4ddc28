// Written by scripts/fit-levels.py --rust from results/calibrate-levels/20261207; do not edit by hand:
// run scripts/calibrate-levels.sh again (docs/bots.md).

use crate::LevelRating;
use chimera_rules::Variant;

/// Each level's rating as a house bot in each variant, with its 95%
/// interval and the games behind it (`docs/bots.md`): Elo on the scale of
/// Stockfish 15.1's `UCI_Elo` in chess, each other variant tied to chess
/// at level 4; a joint Bradley-Terry fit with 1 virtual
/// draw a pairing, profile-likelihood intervals.
///
/// `Variant::ALL`: 0 chess, 1 genie, 2 genie-ownhalf, 3 genesis, 4 clown, 5 magicring.
pub const LEVEL_RATINGS: [LevelRating; 48] = [
    LevelRating { variant: Variant::ALL[0], level: 1, rating: 1214, lower: 1076, upper: 1349, games: 80 },
    LevelRating { variant: Variant::ALL[1], level: 1, rating: 682, lower: 444, upper: 895, games: 80 },
    LevelRating { variant: Variant::ALL[2], level: 1, rating: 837, lower: 623, upper: 1035, games: 80 },
    LevelRating { variant: Variant::ALL[3], level: 1, rating: 1085, lower: 905, upper: 1259, games: 80 },
    LevelRating { variant: Variant::ALL[4], level: 1, rating: 841, lower: 636, upper: 1033, games: 80 },
    LevelRating { variant: Variant::ALL[5], level: 1, rating: 829, lower: 562, upper: 1074, games: 40 },
    LevelRating { variant: Variant::ALL[0], level: 2, rating: 1311, lower: 1197, upper: 1421, games: 174 },
    LevelRating { variant: Variant::ALL[1], level: 2, rating: 864, lower: 642, upper: 1059, games: 160 },
    LevelRating { variant: Variant::ALL[2], level: 2, rating: 1043, lower: 847, upper: 1219, games: 160 },
    LevelRating { variant: Variant::ALL[3], level: 2, rating: 1365, lower: 1219, upper: 1508, games: 160 },
    LevelRating { variant: Variant::ALL[4], level: 2, rating: 1018, lower: 831, upper: 1190, games: 160 },
    LevelRating { variant: Variant::ALL[5], level: 2, rating: 1103, lower: 880, upper: 1307, games: 80 },
    LevelRating { variant: Variant::ALL[0], level: 3, rating: 1577, lower: 1486, upper: 1670, games: 180 },
    LevelRating { variant: Variant::ALL[1], level: 3, rating: 1337, lower: 1201, upper: 1467, games: 160 },
    LevelRating { variant: Variant::ALL[2], level: 3, rating: 1467, lower: 1345, upper: 1586, games: 160 },
    LevelRating { variant: Variant::ALL[3], level: 3, rating: 1505, lower: 1386, upper: 1623, games: 160 },
    LevelRating { variant: Variant::ALL[4], level: 3, rating: 1402, lower: 1275, upper: 1525, games: 160 },
    LevelRating { variant: Variant::ALL[5], level: 3, rating: 1393, lower: 1233, upper: 1543, games: 80 },
    LevelRating { variant: Variant::ALL[0], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 180 },
    LevelRating { variant: Variant::ALL[1], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 160 },
    LevelRating { variant: Variant::ALL[2], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 160 },
    LevelRating { variant: Variant::ALL[3], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 160 },
    LevelRating { variant: Variant::ALL[4], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 120 },
    LevelRating { variant: Variant::ALL[5], level: 4, rating: 1602, lower: 1513, upper: 1690, games: 80 },
    LevelRating { variant: Variant::ALL[0], level: 5, rating: 1848, lower: 1752, upper: 1945, games: 114 },
    LevelRating { variant: Variant::ALL[1], level: 5, rating: 1881, lower: 1750, upper: 2020, games: 94 },
    LevelRating { variant: Variant::ALL[2], level: 5, rating: 1889, lower: 1757, upper: 2030, games: 94 },
    LevelRating { variant: Variant::ALL[3], level: 5, rating: 1807, lower: 1683, upper: 1935, games: 94 },
    LevelRating { variant: Variant::ALL[4], level: 5, rating: 2077, lower: 1865, upper: 2363, games: 46 },
    LevelRating { variant: Variant::ALL[5], level: 5, rating: 1926, lower: 1757, upper: 2121, games: 46 },
    LevelRating { variant: Variant::ALL[0], level: 6, rating: 2058, lower: 1934, upper: 2180, games: 40 },
    LevelRating { variant: Variant::ALL[1], level: 6, rating: 2466, lower: 2085, upper: 3316, games: 20 },
    LevelRating { variant: Variant::ALL[2], level: 6, rating: 2474, lower: 2093, upper: 3324, games: 20 },
    LevelRating { variant: Variant::ALL[3], level: 6, rating: 2087, lower: 1840, upper: 2393, games: 20 },
    LevelRating { variant: Variant::ALL[4], level: 6, rating: 2302, lower: 1943, upper: 2763, games: 8 },
    LevelRating { variant: Variant::ALL[5], level: 6, rating: 2371, lower: 1954, upper: 3230, games: 8 },
    LevelRating { variant: Variant::ALL[0], level: 7, rating: 2029, lower: 1808, upper: 2223, games: 18 },
    LevelRating { variant: Variant::ALL[1], level: 7, rating: 2568, lower: 2093, upper: 3446, games: 12 },
    LevelRating { variant: Variant::ALL[2], level: 7, rating: 2474, lower: 1998, upper: 3349, games: 12 },
    LevelRating { variant: Variant::ALL[3], level: 7, rating: 2312, lower: 1932, upper: 2785, games: 12 },
    LevelRating { variant: Variant::ALL[4], level: 7, rating: 2023, lower: 1112, upper: 2652, games: 4 },
    LevelRating { variant: Variant::ALL[5], level: 7, rating: 2371, lower: 1764, upper: 3288, games: 4 },
    LevelRating { variant: Variant::ALL[0], level: 8, rating: 2449, lower: 2187, upper: 2693, games: 12 },
    LevelRating { variant: Variant::ALL[1], level: 8, rating: 3014, lower: 2378, upper: 4051, games: 6 },
    LevelRating { variant: Variant::ALL[2], level: 8, rating: 2920, lower: 2285, upper: 3954, games: 6 },
    LevelRating { variant: Variant::ALL[3], level: 8, rating: 2538, lower: 2056, upper: 3118, games: 6 },
    LevelRating { variant: Variant::ALL[4], level: 8, rating: 2302, lower: 1307, upper: 3306, games: 2 },
    LevelRating { variant: Variant::ALL[5], level: 8, rating: 2492, lower: 1763, upper: 3481, games: 2 },
];
