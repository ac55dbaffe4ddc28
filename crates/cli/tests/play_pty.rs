//! `chimera play` in a real pseudo-terminal (portable-pty), its screen read
//! back through a terminal emulator (vt100): it draws the board, takes a
//! typed move and a key, and quits cleanly. Also the line mode a script gets
//! through a pipe. Every wait is bounded.

use portable_pty::{native_pty_system, CommandBuilder, PtySize};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// Waits (at most `secs`) until the emulated screen contains `needle`.
fn wait_screen(parser: &Arc<Mutex<vt100::Parser>>, needle: &str, secs: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let text = parser.lock().unwrap().screen().contents();
        if text.contains(needle) || Instant::now() > deadline {
            return text;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn full_screen_play_in_a_pseudo_terminal() {
    let pty = native_pty_system();
    let pair = pty.openpty(PtySize { rows: ROWS, cols: COLS, pixel_width: 0, pixel_height: 0 }).expect("openpty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_chimera"));
    cmd.args(["play", "--variant", "genie", "--hot-seat", "--clock", "5+3"]);
    cmd.env("TERM", "xterm-256color");
    cmd.env("LANG", "C.UTF-8");
    cmd.env_remove("LC_ALL");
    cmd.env_remove("LC_CTYPE");
    cmd.env_remove("NO_COLOR");
    let dir = std::env::temp_dir().join(format!("chimera-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    cmd.cwd(&dir);
    let mut child = pair.slave.spawn_command(cmd).expect("spawn chimera play");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let writer: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(pair.master.take_writer().expect("writer")));
    let parser =
        Arc::new(Mutex::new(vt100::Parser::new(NonZeroU16::new(ROWS).unwrap(), NonZeroU16::new(COLS).unwrap(), 0)));
    let (p2, w2) = (parser.clone(), writer.clone());
    let reading = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        // Ends when the child exits and the pty closes.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut p = p2.lock().unwrap();
            p.process(&buf[..n]);
            // Answer cursor-position queries (DSR) as a real terminal does.
            if buf[..n].windows(4).any(|w| w == b"\x1b[6n") {
                let (row, col) = p.screen().cursor_position();
                let _ = write!(w2.lock().unwrap(), "\x1b[{};{}R", row + 1, col + 1);
            }
        }
    });
    let send = |bytes: &[u8]| {
        let mut w = writer.lock().unwrap();
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    };

    let screen = wait_screen(&parser, "Genie Of The Lamp", 30);
    assert!(screen.contains("Genie Of The Lamp"), "no board drawn:\n{screen}");
    assert!(screen.contains("♖"), "no chess glyphs:\n{screen}");
    assert!(screen.contains("5:00"), "no clock:\n{screen}");

    // A typed move with the command line.
    send(b":e4\r");
    let screen = wait_screen(&parser, "1. e4", 20);
    assert!(screen.contains("1. e4"), "the move list did not show e4:\n{screen}");
    // Cursor keys (escape sequences, as a terminal sends them): e7 to e5.
    // The cursor starts on e2; up five ranks to e7.
    for _ in 0..5 {
        send(b"\x1b[A");
    }
    send(b"\r");
    send(b"\x1b[B\x1b[B\r");
    let screen = wait_screen(&parser, "e5", 20);
    assert!(screen.contains("1. e4      e5"), "the cursor move e5 did not play:\n{screen}");
    // The mouse (SGR reports, 1-based): click g1, then f3. At 80x24 the
    // squares are 5x2 cells from column 2: g1's middle is (34, 15), f3's (29, 11).
    send(b"\x1b[<0;35;16M\x1b[<0;35;16m");
    send(b"\x1b[<0;30;12M\x1b[<0;30;12m");
    let screen = wait_screen(&parser, "Nf3", 20);
    assert!(screen.contains("2. Nf3"), "the mouse move Nf3 did not play:\n{screen}");

    // Quit: the terminal is given back (the alternate screen left).
    send(b"q");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().expect("try_wait") {
            break Some(s);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let status = status.expect("chimera play did not quit on 'q'");
    assert!(status.success(), "exit status {status:?}");
    drop(writer);
    drop(pair.master);
    let _ = reading.join();
    let parser = parser.lock().unwrap();
    assert!(!parser.screen().alternate_screen(), "the alternate screen was not left");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn line_mode_through_a_pipe() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(["play", "--variant", "clown", "--hot-seat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().unwrap().write_all(b"e4\ne5\nmoves\npgn\nquit\n").unwrap();
    let out = child.wait_with_output().expect("output");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "{text}");
    assert!(text.contains("1. e4 e5 *"), "{text}");
}
