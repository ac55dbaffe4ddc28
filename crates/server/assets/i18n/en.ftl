# Chimera's words in English: the reference catalog (docs/server.md,
# "Languages"). Every key here is in de.ftl, fr.ftl and es.ftl, and every
# key is used by a page (assets/*.html as {{key}}) or a script (t('key')):
# the unit tests of crates/server/src/i18n.rs check both. A message put in
# an HTML attribute holds no ASCII double quote; one with markup is HTML.

## Words many pages share

anonymous = Anonymous
variant = Variant
opponent = Opponent
rated = Rated
casual = Casual
white = White
black = Black
random = Random
clock = Clock
clock-none = None
correspondence = Correspondence
cancel = Cancel
your-games = Your games
game = Game
games = Games
turn = Turn
time-left = Time left
player = Player
players = Players
moves = Moves
status = Status
last-move = Last move
yours = yours
playing = playing
hot-seat = Hot-seat
log-in = Log in
your-turn = Your turn
their-turn = Theirs
waiting-for-opponent = waiting for an opponent
go-to-lobby = Go to the lobby
level-n = Level { $n }
computer-n = Computer { $n }
# Two players of a game: “Anna v Bob”.
a-v-b = { $a } v { $b }
n-days = { $n ->
    [one] { $n } day
   *[other] { $n } days
}
days-a-move = { $n ->
    [one] { $n } day a move
   *[other] { $n } days a move
}
# A correspondence clock: days and hours, then hours and minutes.
clock-days-hours = { $d ->
    [one] { $d } day { $h } h
   *[other] { $d } days { $h } h
}
clock-hours-minutes = { $h } h { $m } min
name-too-long = A name is 20 characters at most.
name-bad-chars = A name may hold letters, digits, single spaces and - _ . ' only.
bot-title = A program: it plays through the Bot API
bot-busy = { $name } is busy: try again in a minute
bot-declined = { $name } declined ({ $reason })

## The header and its “Look” panel

hdr-site = Site
hdr-play = Play
hdr-analysis = Analysis board
hdr-rules = Rules
hdr-learn = Learn
hdr-puzzles = Puzzles
hdr-players = Players
hdr-lab = Lab
hdr-your-account = Your account
hdr-skip = Skip to the page’s content
blind-mode = Screen reader mode
look = Look
look-label = The site’s look
look-colours = Colours
look-system = As the system
look-dark = Dark
look-light = Light
look-board = Board
look-brown = Brown
look-blue = Blue
look-green = Green
look-grey = Grey
look-pieces = Pieces
look-classic = Classic
look-discs = Discs
look-language = Language

## The lobby (index.html, lobby.js)

lobby-title = Chimera — play chess and its variants
lobby-heading = Chimera: play chess and its variants
lobby-description = Play chess, Genie, Genesis, Clown and Magic Ring chess online: against the computer, a friend, a stranger or on one device, with clocks, ratings and an analysis board. Free and open source.
lobby-new-game = New game
lobby-your-name = Your name
lobby-your-name-hint = (shown to others; remembered in this browser)
lobby-mode-engine = Computer
lobby-mode-seek = A stranger (open seek)
lobby-mode-friend = A friend (invite link)
lobby-mode-hotseat = Hot-seat (this device)
lobby-rated-hint = A rated game changes both players’ ratings. It is played by the variant’s own rules from its own start position: the rule options stay at their defaults.
lobby-rated-login = <a href="/login">Log in</a> to play rated games.
lobby-range = Opponent’s rating
lobby-range-any = Any
lobby-range-100 = Yours ± 100
lobby-range-200 = Yours ± 200
lobby-range-300 = Yours ± 300
lobby-range-500 = Yours ± 500
lobby-range-only = Only players rated { $lo } to { $hi } in this variant can join.
lobby-range-anyone = Anyone can join.
lobby-level = Computer level
lobby-your-colour = Your colour
lobby-clock-timed = Minutes + increment
lobby-minutes = Minutes
lobby-minutes-bad = Minutes must come to a whole number of seconds, from 0.25 (15 s) to 180.
lobby-increment = Increment (s)
lobby-days = Days per move
lobby-days-1 = 1 day
lobby-days-2 = 2 days
lobby-days-3 = 3 days
lobby-days-5 = 5 days
lobby-days-7 = 7 days
lobby-days-14 = 14 days
lobby-days-hint = Each move may take this long; a move gives the whole time back. The game waits for you between visits, on any device you log in on.
lobby-days-login = <a href="/login">Log in</a> to play correspondence games (days per move).
lobby-create = Create game
lobby-play-stranger = Play a stranger
lobby-quick = Quick pairing
lobby-quick-about = A rated game of the variant chosen under “New game” with a player near your rating, as soon as one is there. The number is how many wait.
lobby-quick-login = <a href="/login">Log in</a> to be paired: quick games are rated.
lobby-waiting = { $n } waiting
lobby-looking = Looking for an opponent within { $range } points of your rating ({ $s } s)…
lobby-looking-in = Looking for an opponent in { $variant } { $clock } within { $range } points of your rating ({ $s } s)…
lobby-your-games-about = Your games in progress, those where it is your turn first, the nearest deadline first.
lobby-seeks = Open seeks
lobby-seeks-about = Games waiting for an opponent: anyone may take the free seat, first come first served. Create one with <em>A stranger</em> above; friend games stay private. A <span class="tag rated">Rated</span> game, and a seek with a rating range, needs an account to join.
lobby-mode = Mode
lobby-you-play = You play
lobby-action = Action
lobby-games-about = Yours are marked <span class="tag mine">yours</span>. Open one to resume it, or to review it move by move. Or open the <a href="/analysis">analysis board</a> to study any position or an imported PGN.
lobby-friends = (friends)
lobby-no-games = No games yet: create one.
lobby-own-start = (own start)
lobby-open = Open
lobby-login-to-join = Log in to join
lobby-out-of-range = Out of range
lobby-out-of-range-why = For players rated { $lo } to { $hi }: yours is { $rating }
lobby-join = Join
lobby-seek-range = Only players rated { $lo } to { $hi } can join
lobby-bot = Bot
lobby-bot-title = A house bot: the engine at a measured level
lobby-no-seeks = No open seeks now: create one with “A stranger”.

## Missing pages, offline

nogame-title = Chimera — no such game
nogame-og-title = No such game on Chimera
nogame-description = This Chimera game does not exist: the link may be mistyped or the game gone. Start a new game from the lobby.
nogame-heading = No such game
nogame-text = There is no game at this address: the link may be mistyped or cut short, or the game was an open seek its creator cancelled.
notfound-title = Chimera — page not found
notfound-og-title = Page not found on Chimera
notfound-description = There is no Chimera page at this address: the link may be mistyped or out of date.
notfound-heading = Page not found
notfound-text = There is no page at this address: the link may be mistyped or out of date.
offline-title = Chimera — offline
offline-og-title = Chimera: offline
offline-description = Chimera cannot reach its server: this device is offline. The page comes back when the network does.
offline-og-description = Chimera cannot reach its server: this device is offline.
offline-heading = You are offline
offline-text = Chimera cannot reach its server: this device has no network, or the server cannot be reached just now. Games go on on the server; a game you play resumes where it was when you are back.
offline-retry = Try again

## The game page (game.html, game.js)

yes = Yes
no = No
decline = Decline
flip = Flip board
flip-title = Flip the board
nav-first = First position
nav-prev = Previous move
nav-next = Next move
nav-last = Current position
provisional-title = Provisional rating: it settles after more rated games
result-white-wins = White wins
result-black-wins = Black wins
result-draw = Draw
# “White wins by checkmate”, “Draw by agreement”.
result-by = { $who } by { $reason }
reason-checkmate = checkmate
reason-stalemate = stalemate
reason-threefold = threefold repetition
reason-fifty = fifty-move rule
reason-dead-material = dead material
reason-resignation = resignation
reason-timeout = time forfeit
reason-agreement = agreement
reason-aborted = aborted
game-title = Chimera — game
game-og-title = A game on Chimera
game-description = A game of chess or one of its variants on Chimera: watch it live, play your seat, or review it move by move.
game-seat-free = A seat is free in this game.
game-join = Join this game
game-send-link = Send this link to your friend:
game-accept-draw = Accept draw
game-seek-wait = Waiting for a stranger to take the other seat: this game is listed in the lobby’s open seeks until someone joins, or until you cancel or leave.
game-cancel-seek = Cancel the seek
game-accept-rematch = Accept rematch
game-rematch = Rematch
game-resign = Resign
game-really-resign = Really resign?
game-offer-draw = Offer draw
game-takeback = Takeback
game-analyse = Analyse
game-export-pgn = Export PGN
game-not-connected = Not connected: reconnecting…
game-idle = Stopped watching after a long idle time: click or press a key to watch again.
game-computer-level = Computer (level { $n })
game-you-mark = {" "}(you)
game-waiting-mark = {" "}— waiting for a player
game-over = Game over.
game-waiting-opponent = Waiting for an opponent.
game-waiting-friend = Waiting for your friend to join: send them the invite link.
game-thinking = The computer is thinking…
game-your-move = { $color ->
    [white] Your move (White).
   *[black] Your move (Black).
}
game-waiting-for = { $color ->
    [white] Waiting for White.
   *[black] Waiting for Black.
}
game-watching = { $color ->
    [white] You are watching. White to move.
   *[black] You are watching. Black to move.
}
game-invite-used = This invite link has already been used: both seats are taken.
game-reviewing = Reviewing move { $ply } of { $of }.
game-draw-offered = { $color ->
    [white] White offers a draw.
   *[black] Black offers a draw.
}
game-rating-diff-title = Rating { $before } before the game, { $after } after
game-ratings = Ratings: { $w }, { $b }.
game-ratings-updating = Rated game: the ratings are being updated…
game-rematch-swapped = Rematch (colours swapped)
game-offer-rematch = Offer a rematch
game-rematch-offered = Rematch offered: waiting for your opponent to accept.
game-rematch-offer = { $who } offers a rematch, colours swapped.
game-rematch-on = The rematch is on:
game-play-it = play it
game-watch-it = watch it
game-draw-hotseat = Agree a draw? Both players are at this device: the game ends as a draw.
game-draw-computer = Offer the computer a draw?
game-draw-opponent = Offer your opponent a draw?

## Log in and sign up (login.html, login.js, forms.js)

username = Username
password = Password
login-title = Chimera — log in
login-og-title = Log in to Chimera
login-description = Log in to Chimera, or create an account to play rated games and correspondence chess.
login-heading = Log in or sign up
login-new-here = New here? <a href="#signup-panel" id="to-signup">Create an account</a>: no e-mail needed.
login-create-heading = Create an account
login-signup-about = An account keeps your games: they follow you to any device you log in on. The games you played in this browser become the account’s.
login-username-hint = 2 to 20 letters (A–Z), digits, _ or -: it starts with a letter, ends with a letter or a digit, and has no two _ or - in a row.
login-password-hint = 8 to 128 characters; not a common password, and not containing your username. There is no e-mail reset: keep it safe.
login-password-again = Password again
login-password-again-hint = The same password, to be sure of it.
login-create = Create account
login-already = You are logged in as { $name }.
login-go-account = Go to your account
login-go-on = Go on
login-or-else = , or log in below as someone else.
login-too-many = Too many failed attempts: try again in { $s } s.
login-try-again-in = Try again in { $s } s.
login-enter-username = Enter your username.
login-enter-password = Enter your password.
login-passwords-differ = The two passwords differ.
login-welcome = Welcome, { $name }: your account is made.
login-claimed = { $n ->
    [one] { $n } game played in this browser is now the account’s.
   *[other] { $n } games played in this browser are now the account’s.
}
form-choose-username = Choose a username.
form-username-length = A username is 2 to 20 characters long.
form-username-chars = A username may hold only letters A–Z, digits, _ and -.
form-username-start = A username starts with a letter.
form-username-end = A username ends with a letter or a digit.
form-username-double = A username has no two _ or - in a row.
form-password-short = A password is at least 8 characters long.
form-password-long = A password is at most 128 characters long.
form-password-username = A password may not contain the username.

## Rules (rules.html, rules.js) and players (players.html, players.js)

rating = Rating
novariant-title = Chimera — no such variant
novariant-heading = No such variant
rules-title = Chimera — rules
rules-og-title = Rules of the variants on Chimera
rules-description = The rules of chess and of its variants played on Chimera (Genie, Genesis, Clown, Magic Ring), with diagrams and their rule options.
rules-heading = Rules of the variants
rules-diagrams = Diagrams
rules-play = Play { $variant }
rules-no-variant = No variant “{ $variant }”
rules-chimera-plays = Chimera plays:
rules-title-of = Chimera — rules of { $variant }
rules-complete = The complete rules of { $variant }
rules-complete-about = : every rule, how moves are written, and the readings taken where the inventor’s text is unclear (in English).
rules-diagram-unavailable = (diagram unavailable: { $error })
players-title = Chimera — players
players-og-title = Players on Chimera
players-description = The leaderboards of Chimera: the best-rated players of chess and of each variant.
players-who-days = { $n ->
    [one] Listed: players whose rating is settled (not provisional, marked “?” elsewhere) and who played a rated game of the variant in the last day. A rating is provisional until the player has played enough rated games for it to be sure.
   *[other] Listed: players whose rating is settled (not provisional, marked “?” elsewhere) and who played a rated game of the variant in the last { $n } days. A rating is provisional until the player has played enough rated games for it to be sure.
}
players-who-months = Listed: players whose rating is settled (not provisional, marked “?” elsewhere) and who played a rated game of the variant in the last few months. A rating is provisional until the player has played enough rated games for it to be sure.
players-empty = No one yet: players appear here once their rating is settled.
players-play-rated = Play a rated game
players-all = All
players-all-label = All { $variant } players
players-all-variants = All variants
players-no-variant = Chimera has no variant “{ $variant }”.
players-see-all = See every variant’s leaderboard
players-title-of = Chimera — { $variant } players
players-top = { $variant }: the top players
players-error = The leaderboards could not be read: { $error }

## The analysis board (analysis.html, analysis.js, explorer.js, tree.js)

play-move = Play { $move }
analysis-title = Chimera — analysis board
analysis-og-title = Chimera analysis board
analysis-description = Study any position of chess or its variants with an engine: set up a FEN, import a PGN, explore side lines and export them.
analysis-evalbar = Engine evaluation (White’s share)
analysis-set-position = Set position
analysis-start-position = Start position
analysis-engine = Engine
analysis-auto = after every move
analysis-lines = Lines
analysis-key-start = Start (Home)
analysis-key-back = Back (←)
analysis-key-forward = Forward (→)
analysis-key-end = End of the line (End)
analysis-promote = Promote line
analysis-promote-title = Make this side line the one it branches from
analysis-delete = Delete from here
analysis-delete-title = Delete this move and what follows
analysis-keys-help = Keys: ← → back and forward, Home/End start and end of the line, ↑ ↓ the side lines, f flips the board. A move played from an earlier position starts a side line; nothing is thrown away.
analysis-pgn-placeholder = Paste a PGN here and press Import
analysis-import = Import PGN
analysis-no-position = No position: { $error }. Correct the FEN and press “Set position”, or press “Start position”.
analysis-stop = Stop
analysis-thinking = Thinking…
analysis-depth = depth { $n }
explorer = Opening explorer
explorer-people = People (rated)
explorer-engines = Engines and lab
explorer-none = No game in the store has reached this position.
explorer-move = Move
explorer-wdb = White / draw / Black
explorer-white-wins = { $n } White wins
explorer-draws = { $n } draws
explorer-black-wins = { $n } Black wins
explorer-bar = { $w }% White wins, { $d }% draws, { $b }% Black wins
tree-eval-title = Evaluation from the PGN
tree-clock-title = Clock from the PGN

## The computer review (review.js), sounds, the board and its choosers

review = Computer review
review-what = The engine searches every position of the game: an evaluation graph, each side’s accuracy and mistakes, and the better move where one was missed.
review-running = The engine is reviewing the game…
review-queued = The review is queued: it starts when an engine is free…
review-failed = No review: { $error }
review-asking = Asking for a review…
review-eval-graph = Evaluation graph: press a point to go to its move
review-time-graph = Time per move: press a bar to go to its move
review-accuracy = Accuracy
review-inaccuracies = Inaccuracies
review-mistakes = Mistakes
review-blunders = Blunders
review-inaccuracy = Inaccuracy
review-mistake = Mistake
review-blunder = Blunder
review-no-clock = No clock in this game: no move times.
review-at-start = at the start. Press a point of a graph to go to its move.
review-better-was = Better was
review-engine-chose = The engine chose { $move }
review-move-accuracy = accuracy { $n }%
review-count-inaccuracy = { $side }: { $n ->
    [one] { $n } inaccuracy
   *[other] { $n } inaccuracies
}
review-count-mistake = { $side }: { $n ->
    [one] { $n } mistake
   *[other] { $n } mistakes
}
review-count-blunder = { $side }: { $n ->
    [one] { $n } blunder
   *[other] { $n } blunders
}
review-count-go = { $count }, go to the next
review-slider-move = Move { $move } { $san }, { $eval }
review-slider-start = Start, { $eval }
sound-on = Sound: on
sound-off = Sound: off
sound-on-title = Sounds are on: click to mute them
sound-off-title = Sounds are off: click to turn them on
board-label = The board
board-reserve = Reserve
board-place-piece = Place the piece on a highlighted square.
board-drop-title = : click or drag onto a highlighted square
chooser-title = Choose
premove-waits = Premove { $from }–{ $to } waits for your turn (played then if legal). Esc or a click on an empty square cancels it.
premove-note = Premove: it is played when your turn comes, if legal then. Click elsewhere or press Esc to cancel.
piece-pawn = Pawn
piece-knight = Knight
piece-bishop = Bishop
piece-rook = Rook
piece-queen = Queen
piece-king = King
piece-genie = Genie
piece-clown = Clown
ring-title = { $owner ->
    [white] White’s ring
   *[black] Black’s ring
}
ring-captured = { $holder ->
    [white] , captured by White
   *[black] , captured by Black
}
ring-level = , level { $level }
ring-grants = , grants { $power }
ring-grants-idle = , grants { $power } (not on a King)
tainted-title = Tainted pawn: no promotion, no double step
note-declare = This Knight may be declared a Clown on this move: pick a square, then choose.
note-ringpass = Gold circles: pass the ring to that neighbour.
note-promotion = Promotion: you will choose the piece.
action-flip = Flip this pawn into a Genie ({ $square })
choice-declare = Declare a Clown
choice-declare-title = Declare this Knight a Clown
choice-stay = Stay a Knight

## The account page (account.html, account.js)

account-title = Chimera — your account
account-og-title = Your Chimera account
account-description = Your Chimera account: your settings, password, API tokens and notifications.
account-member-since = Member since
account-logout = Log out
account-logout-all = Log out everywhere
account-logout-all-note = “Log out everywhere” ends every session of this account, on every device, this one included.
account-change-password = Change password
account-current-password = Current password
account-new-password = New password
account-new-password-hint = 8 to 128 characters; not a common password, and not containing your username.
account-new-password-again = New password again
account-new-password-again-hint = The same new password, to be sure of it.
account-password-note = Your other sessions end when the password changes; this one goes on.
account-tokens = API tokens
account-tokens-about = A token lets a program play for this account through the <a href="/docs/api.md">Bot and Board API</a> (as lichess’s tokens do): an engine as a BOT account, or your own program or terminal. Keep it secret; revoke it when it is no longer used.
account-token-what = What it is for
account-token-what-hint = 1 to 60 characters, for you to tell your tokens apart.
account-token-scopes = What it may do
account-scope-board = Play games from a program
account-scope-bot = Play as a BOT account
account-scope-cread = Read challenges
account-scope-cwrite = Make and answer challenges
account-create-token = Create token
account-token-new = Your new token, shown this once: copy it now.
account-copy = Copy
account-copied = Copied
account-copy-by-hand = Select and copy it
account-your-tokens = Your API tokens
account-token = Token
account-scopes = Scopes
account-created = Created
account-last-used = Last used
account-never = never
account-revoke = Revoke
account-revoke-label = Revoke { $token }
account-no-tokens = No tokens yet.
account-data = Your data
account-data-about = Everything the site keeps about your account, to keep or to take elsewhere.
account-download-data = Download my data (JSON)
account-download-games = Download my games (PGN)
account-delete = Delete account
account-delete-about = The account and its sessions are gone for good. Its games stay on the site, without your name. The username cannot be taken again.
account-delete-confirm = I understand: my account is deleted for good.
account-delete-submit = Delete my account
account-read-error = Your account could not be read: { $error }
account-tokens-error = Your tokens could not be read: { $error }
account-token-say = Say what the token is for.
account-token-tick = Tick at least one thing the token may do.
account-logged-out = Logged out.
account-logged-out-all = Logged out everywhere.
account-logged-out-all-n = { $n ->
    [one] Logged out everywhere ({ $n } session ended).
   *[other] Logged out everywhere ({ $n } sessions ended).
}
account-logged-out-already = You were logged out already.
account-enter-current = Enter your current password.
account-new-differ = The two new passwords differ.
account-password-changed = Password changed. Your other sessions are logged out; this one goes on.
account-delete-enter = Enter your password to delete the account.
account-delete-tick = Tick the box to confirm that the account is to be deleted.
account-deleted = Your account is deleted. Its games stay, without your name.

## A player's profile (profile.html, profile.js)

profile-title = Chimera — player
profile-og-title = A player’s profile on Chimera
profile-description = A Chimera player’s ratings in each variant, rating history, results and archive of games.
profile-you = This is you: <a href="/account">your account</a>.
profile-challenge = Challenge
profile-time = Time
profile-no-clock = No clock
profile-days-1 = 1 day a move
profile-days-3 = 3 days a move
profile-days-7 = 7 days a move
profile-send-challenge = Send the challenge
profile-in-progress = Your games in progress
profile-ratings = Ratings
profile-no-rated = No rated games yet.
profile-latest = Latest games
profile-found = Games found
profile-search-label = Search this player’s games
profile-result = Result
profile-win = Win
profile-loss = Loss
profile-from = From
profile-to = To
profile-search = Search
profile-download = Download these games (PGN)
profile-date = Date
profile-pages = Pages of games
profile-newer = Newer
profile-older = Older
profile-page-1 = Page 1
profile-page = Page { $n }
profile-page-games = games { $from }–{ $to }
profile-page-none = no games
profile-none-page = No games on this page.
profile-none-match = No games match this search.
profile-none-yet = No games yet.
profile-search-failed = No games shown: the search could not be run.
profile-search-wrong = The search is not right: { $error }
profile-games-error = The games could not be read: { $error }
profile-date-partial = The “{ $field }” date is not a whole date.
profile-date-bad = The “{ $field }” date is not a date.
profile-date-order = The “From” date is after the “To” date.
profile-outcome-draw = draw
profile-outcome-won = won
profile-outcome-lost = lost
profile-no-history = No rating history yet.
profile-graph-title = { $n ->
    [one] { $variant }: rating history over { $n } rated game, from { $from } to { $to }
   *[other] { $variant }: rating history over { $n } rated games, from { $from } to { $to }
}
profile-provisional = provisional
profile-interval = 95% interval { $lo }–{ $hi }, from { $n } calibration games
profile-wins = Wins
profile-draws = Draws
profile-losses = Losses
profile-since = Playing on Chimera since { $date }.
profile-bot = A house bot: the engine at level { $n }. Its ratings are the level’s
profile-bot-link = measured strength
profile-bot-after = ; a rated game against it moves only your rating.
profile-error = This player’s page could not be read: { $error }
profile-declined-busy = { $name } declined: busy, try again in a minute.
profile-declined-clock = { $name } declined: bots play games with a clock.
profile-declined = { $name } declined: { $reason }.
profile-challenge-sent = Challenge sent: waiting for { $name } to answer.
profile-cancel-it = Cancel it
profile-challenge-cancelled = Challenge cancelled.
noplayer-title = Chimera — no such player
noplayer-heading = No such player
noplayer-text = There is no player named “{ $name }”: the name may be mistyped, or the account deleted.
noplayer-none = No player was named.
noplayer-leaderboards = See the leaderboards

## Notifications (notes.js)

notes = Notifications
notes-unread = Notifications: { $n } unread
notes-nothing = Nothing yet.
notes-accept = Accept
notes-declined-done = Declined
notes-no-clock = no clock
notes-challenge-rated = { $name } challenges you: { $variant }, { $clock }, rated
notes-challenge-casual = { $name } challenges you: { $variant }, { $clock }, casual
notes-accepted = { $name } accepted your challenge ({ $variant })
notes-declined = { $name } declined your challenge: { $reason }
notes-not-now = not now
notes-canceled = { $name } cancelled a challenge
notes-seek-taken = { $name } took your seek ({ $variant })
notes-someone = Someone
notes-move = { $name } played { $move } ({ $variant }): your turn
notes-your-opponent = Your opponent
notes-over = Your { $variant } game is over: { $result }
notes-over-against = Your { $variant } game against { $name } is over: { $result }
push-start = Notify me on this device
push-stop = Stop notifying this device
push-cannot = This browser cannot receive push notifications.
push-on = On: challenges and your correspondence moves reach this device while no page is open.
push-off = Off on this device.
push-timeout = { $what } did not answer in { $s } s
push-the-worker = the service worker
push-the-service = the browser’s push service
push-read-error = Could not read the push state: { $error }
push-blocked = Notifications are blocked for this site: allow them in the browser’s site settings, then try again.
push-denied = The browser was not allowed to show notifications.
push-none = This server sends no push notifications.
push-subscribe-error = The browser could not subscribe with its push service ({ $error }). Some browsers have none, or turn it off in private windows.
push-refused = The server refused this device: { $error }
push-error = Push notifications: { $error }

## The variants' and levels' words that the server sends in English
## (common.js: variantName, variantSummary, levelWords, optionFields)

variant-chess = Chess
summary-chess = Orthodox chess under FIDE rules.
summary-genie = Once a game, turn one of your pawns into a Genie that leaps one or two squares in any direction.
summary-genie-ownhalf = Genie Of The Lamp, but a pawn may be flipped only on your own half of the board.
summary-clown = Declare a Knight a Clown that moves like the piece of its file, and bring one lost piece back.
summary-genesis = An empty board: place your pieces from the reserve, King first, and fight as you build.
summary-magicring = Rings on the Kings gain power each time they change hands. Pass them, capture them.
level-words-1 = Beginner: sees one move ahead and blunders freely
level-words-2 = Casual: spots simple captures, misses most threats
level-words-3 = Club novice: avoids hanging pieces most of the time
level-words-4 = Club player: short tactics, steady development
level-words-5 = Strong club player: calculates a few moves deep
level-words-6 = Expert: punishes most mistakes
level-words-7 = Master: full strength, half a second a move
level-words-8 = Full strength: the engine’s best, one second a move
option-ring-powers = Ring powers
option-ring-powers-help = The power of each ring level, in order: 1 to 8 letters of Q R B N K (default QNRB).

## The screen-reader mode (blind.js). Typed commands and move notation stay as they are.
blind-title = Screen reader mode
blind-move-label = Your move, or a command
blind-play = Play
blind-short-help = Type a move as the move list writes it (Nf3, exd5, O-O, Gd2, K@e1, !Nb4, Nc3(!C), e1~d2) or in UCI (g1f3), then press Enter. Commands: b board, r ranks, s variant state, c clocks, l last move, m legal moves (m e2: from e2), t whose turn, h help.
blind-read-aloud = Read
blind-announcements = Announcements
blind-help-title = Every command
blind-confirm-label = Ask before sending a typed move
blind-button-board = Board
blind-button-ranks = Ranks
blind-button-state = Variant state
blind-button-clocks = Clocks
blind-button-last = Last move
blind-button-legal = Legal moves
blind-button-turn = Whose turn
blind-help-b = the board as piece lists: White’s pieces, then Black’s
blind-help-r = the board rank by rank, from rank 8 down (White’s side at the bottom)
blind-help-s = the variant’s state: Genie flips, reserves, hands and re-entries, rings, their levels and powers
blind-help-c = both clocks
blind-help-l = the last move
blind-help-m = every legal move; m e2 those of the piece on e2; m @ (or m N) the placements and re-entries
blind-help-t = whose turn it is, and the game’s status
blind-help-h = this help
blind-help-up = the up arrow in the field brings back the last text typed
blind-help-tab = the game’s buttons follow the board: resign, offer a draw, takeback, flip, analyse, rematch
blind-white = White
blind-black = Black
blind-pawn = pawn
blind-knight = knight
blind-bishop = bishop
blind-rook = rook
blind-queen = queen
blind-king = king
blind-genie = genie
blind-clown = clown
blind-pawns = pawns
blind-knights = knights
blind-bishops = bishops
blind-rooks = rooks
blind-queens = queens
blind-kings = kings
blind-genies = genies
blind-clowns = clowns
blind-castle-short = short castle
blind-castle-long = long castle
blind-takes = takes
blind-from = from
blind-to = to
blind-promotes = promotes to { $role }
blind-check = check
blind-mate = checkmate
blind-placed = { $role } placed on { $square }
blind-reenters = { $role } re-enters on { $square }
blind-flips = pawn on { $square } flips into a Genie
blind-declared = declared a Clown
blind-ring-pass = ring passed from { $from } to { $to }
blind-ring-of = { $side }’s ring
blind-played = { $side } played { $words } ({ $san }).
blind-you-played = You played { $words } ({ $san }).
blind-sent = Sending { $words }…
blind-confirm = Play { $words } ({ $san })? Press Enter to confirm, Escape to cancel.
blind-cancelled = Move cancelled.
blind-not-your-turn = It is not your turn.
blind-not-playing = You are not playing in this game: you may read it, not move.
blind-not-active = The game is over: no more moves.
blind-reviewing = Not at the current position: press End first (or the last-move button).
blind-illegal = Not a legal move: { $move }. { $why }.
blind-changed = The position changed meanwhile: type your move again.
blind-failed = The move could not be checked: { $error }
blind-empty = Type a move or a command (h for help).
blind-board = { $side }: { $list }.
blind-board-empty = { $side }: no pieces on the board.
blind-rank = Rank { $n }: { $list }.
blind-rank-empty = Rank { $n }: empty.
# A piece in a list: its square, its side, its kind (“e1 White king”).
blind-square-piece = { $square } { $side } { $role }
# A Genie standing on the board, in the variant’s state (“White genie d2”).
blind-genie-at = { $side } { $role } { $square }
blind-reserve-name = Reserve
blind-reserve = { $name }, { $side }: { $list }.
blind-reserve-empty = { $name }, { $side }: empty.
blind-no-state = This game has no variant state beyond the board.
blind-clock = { $side } { $time }
blind-clock-running = { $side } { $time }, running
blind-no-clock = This game has no clock.
blind-clock-low = Your clock: { $time } left.
blind-no-move-yet = No move has been played yet.
blind-last = Move { $n }, { $side }: { $words } ({ $san }).
blind-legal = { $n ->
    [one] { $n } legal move: { $list }.
   *[other] { $n } legal moves: { $list }.
}
blind-no-legal = No legal moves here.
blind-none-from = No legal move from { $square }.
# Placements counted per piece; “m N” lists them ($letter: the piece’s letter).
blind-placements = { $n ->
    [one] { $role } placed on any of { $n } square (m { $letter } lists them)
   *[other] { $role } placed on any of { $n } squares (m { $letter } lists them)
}
blind-your-move = Your move ({ $side }).
blind-their-move = { $side } to move.
blind-thinking = The computer is thinking.
blind-waiting-seat = Waiting for an opponent to take the other seat.
blind-you-play = You play { $side }.
blind-watching = You are watching this game.
blind-joined = Your opponent has joined: the game is on.
blind-over = Game over: { $who } by { $reason } ({ $result }).
blind-white-wins = White wins
blind-black-wins = Black wins
blind-draw = Draw
blind-draw-offer = { $side } offers a draw: the Accept draw and Decline buttons follow in the game panel.
blind-draw-gone = The draw offer is no longer on the table.
blind-rematch-offer = { $side } offers a rematch.
blind-takeback = Takeback: the game is back at move { $n }.
blind-seconds = { $n ->
    [one] { $n } second
   *[other] { $n } seconds
}
blind-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}

## The lessons (learn.html, lesson.html, learn-index.js, learn.js). The lessons’ own texts stay in English.
learn-title = Chimera — learn the rules
learn-description = Short interactive lessons for every special rule of chess, Genie Of The Lamp, Genesis, Clown and Magic Ring Chess, on the real board.
learn-og-title = Learn the rules on Chimera
learn-heading = Learn the rules
learn-lead = Every special rule of every game, one short task at a time, on the real board. Your progress is kept in this browser, and in your account when you are logged in.
learn-steps-done = { $done } of { $all } steps done
learn-start = Start
learn-go-on = Go on
learn-again = Play again
learn-failed = The lessons could not be loaded: { $error }
learn-lesson-page-title = Chimera — lessons
learn-lesson-description = Learn the special rules of chess and its variants step by step, on the real board: each task judged by the rules, with a hint and an explanation.
learn-lesson-og-title = Chimera lessons
learn-lessons = Lessons
learn-all-lessons = All lessons
learn-hint = Hint
learn-retry = Start the step again
learn-next-step = Next step
learn-next-lesson = Next lesson
learn-type-move = Or type a move
learn-play = Play
learn-steps = Steps
learn-variant-title = Learn { $name }
learn-step = Step { $n } of { $all }
learn-to-play = { $side ->
    [w] White to play.
   *[b] Black to play.
}
learn-correct = Correct!
learn-wrong = Not quite.
learn-reply = The reply: { $san }.
learn-lesson-done = Lesson finished!
learn-all-done = You have finished every lesson of this game.
# Before the lesson’s hint (in English).
learn-hint-is = Hint:
# A step in the list of steps, for screen readers ($task: the step’s task, in English).
learn-step-label = Step { $n }: { $task }
learn-step-label-done = Step { $n }: { $task } (done)

## Puzzles (puzzles.html, puzzle.html, puzzles-index.js, puzzles.js)
puzzles-title = Chimera — puzzles
puzzles-description = Puzzles for chess and its variants: find the one winning move, with a puzzle rating for each game.
puzzles-og-title = Puzzles on Chimera
puzzles-heading = Puzzles
puzzles-lead = Each puzzle has one winning move: find it. After your move you see the engine’s line. Every round is a rated game between you and the puzzle.
puzzles-count = { $n ->
    [one] one puzzle
   *[other] { $n } puzzles
}
puzzles-none-yet = This set has no puzzles yet.
puzzles-daily = Puzzle of the day
puzzles-solve = Solve
puzzles-your-rating = Your puzzle rating: { $rating }
puzzles-no-rating = No puzzle rating yet: solve one.
puzzles-log-in = Log in to get a puzzle rating.
puzzles-failed = The puzzles could not be loaded: { $error }
puzzles-themes = Themes
# A set’s name: the game, then its rule options when it has some (“Magic Ring Chess, ring powers RNBQ”).
puzzles-set-name = { $name }
puzzles-set-name-options = { $name }, { $options }
puzzles-ring-powers = ring powers { $powers }
puzzle-page-title = Chimera — a puzzle
puzzle-description = Find the one winning move, on the real board; your puzzle rating changes with each first try.
puzzle-og-title = A Chimera puzzle
puzzle-heading = Puzzle
puzzle-all-sets = All puzzle sets
puzzle-view-solution = View the solution
puzzle-retry = Try again
puzzle-next = Next puzzle
puzzle-type-move = Or type a move
puzzle-play = Play
puzzle-set-title = Puzzles: { $name }
puzzle-daily-title = Puzzle of the day: { $name }
puzzle-task = { $side ->
    [w] White to move: find the winning move.
   *[b] Black to move: find the winning move.
}
puzzle-rating = Puzzle rating { $rating }, { $plays ->
    [0] not played yet
    [one] played once
   *[other] played { $plays } times
}
puzzle-themes = Themes: { $themes }
puzzle-replay = You have played this puzzle before: this round is not rated.
puzzle-waiting = The engine answers your move…
puzzle-correct = Correct! { $move } wins.
puzzle-wrong = Wrong: { $move } does not win.
puzzle-refutation = The answer: { $line }
puzzle-gave-up = You asked for the solution: a lost round.
puzzle-solution = The winning move: { $move }. The line: { $line }
puzzle-rating-change = Your puzzle rating: { $rating } ({ $diff })
puzzle-not-rated = Not rated: you had played this puzzle before.
# The themes a puzzle is tagged with (crates/puzzles, THEMES): a name, and what it means.
puzzle-theme-mate = Mate
puzzle-theme-mate-help = The winning move forces mate.
puzzle-theme-matein1 = Mate in 1
puzzle-theme-matein1-help = Mate in one move.
puzzle-theme-matein2 = Mate in 2
puzzle-theme-matein2-help = Mate in two moves.
puzzle-theme-matein3 = Mate in 3
puzzle-theme-matein3-help = Mate in three moves.
puzzle-theme-matein4 = Mate in 4
puzzle-theme-matein4-help = Mate in four moves.
puzzle-theme-matein5 = Mate in 5
puzzle-theme-matein5-help = Mate in five moves.
puzzle-theme-material = Material
puzzle-theme-material-help = The line wins at least two pawns’ worth of material.
puzzle-theme-crushing = Crushing
puzzle-theme-crushing-help = No mate, but a lead of six pawns or more.
puzzle-theme-advantage = Advantage
puzzle-theme-advantage-help = No mate, a lead of three to six pawns.
puzzle-theme-check = Check
puzzle-theme-check-help = The winning move gives check.
puzzle-theme-capture = Capture
puzzle-theme-capture-help = The winning move captures.
puzzle-theme-quiet = Quiet move
puzzle-theme-quiet-help = The winning move neither captures, checks nor promotes.
puzzle-theme-promotion = Promotion
puzzle-theme-promotion-help = The winning move promotes a pawn.
puzzle-theme-flip = Flip
puzzle-theme-flip-help = Genie: the winning move flips a pawn into a Genie.
puzzle-theme-placement = Placement
puzzle-theme-placement-help = Genesis: the winning move places a piece from the reserve.
puzzle-theme-declaration = Declaration
puzzle-theme-declaration-help = Clown: the winning move declares a Knight a Clown.
puzzle-theme-reentry = Re-entry
puzzle-theme-reentry-help = Clown: the winning move brings a captured piece back.
puzzle-theme-ringpass = Ring pass
puzzle-theme-ringpass-help = Magic Ring: the winning move passes a ring.
puzzle-theme-ringpower = Ring power
puzzle-theme-ringpower-help = Magic Ring: the winning move is one the piece makes only by its ring's power.
puzzle-theme-geniemove = Genie
puzzle-theme-geniemove-help = Genie: the winning move is the Genie's.
puzzle-theme-clownmove = Clown
puzzle-theme-clownmove-help = Clown: the winning move is the Clown's.
