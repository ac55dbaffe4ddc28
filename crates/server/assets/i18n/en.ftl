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
hdr-players = Players
hdr-lab = Lab
hdr-your-account = Your account
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
