# Chimeras Wörter auf Deutsch (Referenz: en.ftl; docs/server.md, „Languages“).

## Wörter vieler Seiten

anonymous = Anonym
variant = Variante
opponent = Gegner
rated = Gewertet
casual = Ungewertet
white = Weiß
black = Schwarz
random = Zufällig
clock = Bedenkzeit
clock-none = Keine
correspondence = Fernschach
cancel = Abbrechen
your-games = Deine Partien
game = Partie
games = Partien
turn = Am Zug
time-left = Restzeit
player = Spieler
players = Spieler
moves = Züge
status = Status
last-move = Letzter Zug
yours = deine
playing = läuft
hot-seat = Am selben Gerät
log-in = Anmelden
your-turn = Du bist am Zug
their-turn = Gegner am Zug
waiting-for-opponent = wartet auf einen Gegner
go-to-lobby = Zur Lobby
level-n = Stufe { $n }
computer-n = Computer { $n }
a-v-b = { $a } gegen { $b }
n-days = { $n ->
    [one] { $n } Tag
   *[other] { $n } Tage
}
days-a-move = { $n ->
    [one] { $n } Tag pro Zug
   *[other] { $n } Tage pro Zug
}
clock-days-hours = { $d ->
    [one] { $d } Tag { $h } Std.
   *[other] { $d } Tage { $h } Std.
}
clock-hours-minutes = { $h } Std. { $m } Min.
name-too-long = Ein Name hat höchstens 20 Zeichen.
name-bad-chars = Ein Name darf nur Buchstaben, Ziffern, einzelne Leerzeichen und - _ . ' enthalten.
bot-title = Ein Programm: Es spielt über die Bot-API
bot-busy = { $name } ist beschäftigt: Versuche es in einer Minute noch einmal
bot-declined = { $name } hat abgelehnt ({ $reason })

## Kopfzeile und „Aussehen“

hdr-site = Website
hdr-play = Spielen
hdr-analysis = Analysebrett
hdr-rules = Regeln
hdr-learn = Lernen
hdr-puzzles = Aufgaben
hdr-players = Spieler
hdr-lab = Labor
hdr-your-account = Dein Konto
hdr-skip = Zum Inhalt der Seite springen
blind-mode = Bildschirmleser-Modus
look = Aussehen
look-label = Das Aussehen der Website
look-colours = Farben
look-system = Wie das System
look-dark = Dunkel
look-light = Hell
look-board = Brett
look-brown = Braun
look-blue = Blau
look-green = Grün
look-grey = Grau
look-pieces = Figuren
look-classic = Klassisch
look-discs = Scheiben
look-language = Sprache

## Lobby

lobby-title = Chimera — Schach und seine Varianten spielen
lobby-heading = Chimera: Schach und seine Varianten spielen
lobby-description = Spiele Schach, Genie, Genesis, Clown und Magic Ring Chess online: gegen den Computer, einen Freund, einen Unbekannten oder an einem Gerät, mit Bedenkzeit, Wertungen und einem Analysebrett. Frei und quelloffen.
lobby-new-game = Neue Partie
lobby-your-name = Dein Name
lobby-your-name-hint = (für andere sichtbar; in diesem Browser gespeichert)
lobby-mode-engine = Computer
lobby-mode-seek = Ein Unbekannter (offene Herausforderung)
lobby-mode-friend = Ein Freund (Einladungslink)
lobby-mode-hotseat = Am selben Gerät (hier abwechselnd)
lobby-rated-hint = Eine gewertete Partie ändert die Wertungen beider Spieler. Sie wird nach den eigenen Regeln der Variante aus ihrer eigenen Anfangsstellung gespielt: Die Regeloptionen bleiben auf ihren Standardwerten.
lobby-rated-login = <a href="/login">Melde dich an</a>, um gewertete Partien zu spielen.
lobby-range = Wertung des Gegners
lobby-range-any = Beliebig
lobby-range-100 = Deine ± 100
lobby-range-200 = Deine ± 200
lobby-range-300 = Deine ± 300
lobby-range-500 = Deine ± 500
lobby-range-only = Nur Spieler mit einer Wertung von { $lo } bis { $hi } in dieser Variante können beitreten.
lobby-range-anyone = Jeder kann beitreten.
lobby-level = Computerstufe
lobby-your-colour = Deine Farbe
lobby-clock-timed = Minuten + Inkrement
lobby-minutes = Minuten
lobby-minutes-bad = Die Minuten müssen eine ganze Zahl von Sekunden ergeben, von 0,25 (15 s) bis 180.
lobby-increment = Inkrement (s)
lobby-days = Tage pro Zug
lobby-days-1 = 1 Tag
lobby-days-2 = 2 Tage
lobby-days-3 = 3 Tage
lobby-days-5 = 5 Tage
lobby-days-7 = 7 Tage
lobby-days-14 = 14 Tage
lobby-days-hint = So lange darf jeder Zug dauern; ein Zug gibt die ganze Zeit zurück. Die Partie wartet zwischen deinen Besuchen auf dich, auf jedem Gerät, an dem du dich anmeldest.
lobby-days-login = <a href="/login">Melde dich an</a>, um Fernschachpartien (Tage pro Zug) zu spielen.
lobby-create = Partie erstellen
lobby-play-stranger = Gegen Unbekannte spielen
lobby-quick = Schnelle Paarung
lobby-quick-about = Eine gewertete Partie der unter „Neue Partie“ gewählten Variante gegen einen Spieler nahe deiner Wertung, sobald einer da ist. Die Zahl zeigt, wie viele warten.
lobby-quick-login = <a href="/login">Melde dich an</a>, um gepaart zu werden: Schnelle Partien sind gewertet.
lobby-waiting = { $n ->
    [one] { $n } wartet
   *[other] { $n } warten
}
lobby-looking = Suche einen Gegner innerhalb von { $range } Punkten um deine Wertung ({ $s } s)…
lobby-looking-in = Suche einen Gegner in { $variant } { $clock } innerhalb von { $range } Punkten um deine Wertung ({ $s } s)…
lobby-your-games-about = Deine laufenden Partien: zuerst die, in denen du am Zug bist, die nächste Frist zuerst.
lobby-seeks = Offene Herausforderungen
lobby-seeks-about = Partien, die auf einen Gegner warten: Jeder darf den freien Platz einnehmen, wer zuerst kommt, spielt. Erstelle eine mit <em>Ein Unbekannter</em> oben; Partien unter Freunden bleiben privat. Für eine <span class="tag rated">gewertete</span> Partie und für eine Herausforderung mit Wertungsbereich braucht man ein Konto.
lobby-mode = Art
lobby-you-play = Du spielst
lobby-action = Aktion
lobby-games-about = Deine sind mit <span class="tag mine">deine</span> markiert. Öffne eine, um sie fortzusetzen oder Zug für Zug nachzuspielen. Oder öffne das <a href="/analysis">Analysebrett</a>, um eine beliebige Stellung oder eine importierte PGN zu untersuchen.
lobby-friends = (Freunde)
lobby-no-games = Noch keine Partien: Erstelle eine.
lobby-own-start = (eigene Anfangsstellung)
lobby-open = Öffnen
lobby-login-to-join = Zum Beitreten anmelden
lobby-out-of-range = Außerhalb des Bereichs
lobby-out-of-range-why = Für Spieler mit einer Wertung von { $lo } bis { $hi }: deine ist { $rating }
lobby-join = Beitreten
lobby-seek-range = Nur Spieler mit einer Wertung von { $lo } bis { $hi } können beitreten
lobby-bot = Bot
lobby-bot-title = Ein Haus-Bot: die Engine auf einer gemessenen Stufe
lobby-no-seeks = Gerade keine offenen Herausforderungen: Erstelle eine mit „Ein Unbekannter“.

## Fehlende Seiten, offline

nogame-title = Chimera — keine solche Partie
nogame-og-title = Keine solche Partie auf Chimera
nogame-description = Diese Chimera-Partie gibt es nicht: Der Link ist vielleicht falsch geschrieben oder die Partie ist weg. Starte eine neue Partie in der Lobby.
nogame-heading = Keine solche Partie
nogame-text = Unter dieser Adresse gibt es keine Partie: Der Link ist vielleicht falsch geschrieben oder abgeschnitten, oder die Partie war eine offene Herausforderung, die ihr Ersteller zurückgezogen hat.
notfound-title = Chimera — Seite nicht gefunden
notfound-og-title = Seite auf Chimera nicht gefunden
notfound-description = Unter dieser Adresse gibt es keine Chimera-Seite: Der Link ist vielleicht falsch geschrieben oder veraltet.
notfound-heading = Seite nicht gefunden
notfound-text = Unter dieser Adresse gibt es keine Seite: Der Link ist vielleicht falsch geschrieben oder veraltet.
offline-title = Chimera — offline
offline-og-title = Chimera: offline
offline-description = Chimera erreicht seinen Server nicht: Dieses Gerät ist offline. Die Seite kommt zurück, sobald das Netz wieder da ist.
offline-og-description = Chimera erreicht seinen Server nicht: Dieses Gerät ist offline.
offline-heading = Du bist offline
offline-text = Chimera erreicht seinen Server nicht: Dieses Gerät hat kein Netz, oder der Server ist gerade nicht erreichbar. Partien laufen auf dem Server weiter; eine Partie, die du spielst, geht dort weiter, wo sie war, wenn du zurück bist.
offline-retry = Erneut versuchen

## Partieseite

yes = Ja
no = Nein
decline = Ablehnen
flip = Brett drehen
flip-title = Das Brett drehen
nav-first = Anfangsstellung
nav-prev = Vorheriger Zug
nav-next = Nächster Zug
nav-last = Aktuelle Stellung
provisional-title = Vorläufige Wertung: Sie festigt sich nach weiteren gewerteten Partien
result-white-wins = Weiß gewinnt
result-black-wins = Schwarz gewinnt
result-draw = Remis
result-by = { $who } durch { $reason }
reason-checkmate = Schachmatt
reason-stalemate = Patt
reason-threefold = dreifache Stellungswiederholung
reason-fifty = 50-Züge-Regel
reason-dead-material = ungenügendes Material
reason-resignation = Aufgabe
reason-timeout = Zeitüberschreitung
reason-agreement = Vereinbarung
reason-aborted = Abbruch
game-title = Chimera — Partie
game-og-title = Eine Partie auf Chimera
game-description = Eine Partie Schach oder einer seiner Varianten auf Chimera: live zuschauen, auf deinem Platz spielen oder Zug für Zug nachspielen.
game-seat-free = In dieser Partie ist ein Platz frei.
game-join = Dieser Partie beitreten
game-send-link = Schicke diesen Link deinem Freund:
game-accept-draw = Remis annehmen
game-seek-wait = Warte auf einen Unbekannten, der den anderen Platz einnimmt: Diese Partie steht in der Lobby unter den offenen Herausforderungen, bis jemand beitritt oder bis du abbrichst oder gehst.
game-cancel-seek = Herausforderung zurückziehen
game-accept-rematch = Revanche annehmen
game-rematch = Revanche
game-resign = Aufgeben
game-really-resign = Wirklich aufgeben?
game-offer-draw = Remis anbieten
game-takeback = Zug zurücknehmen
game-analyse = Analysieren
game-export-pgn = PGN exportieren
game-not-connected = Nicht verbunden: Verbindung wird wiederhergestellt…
game-idle = Zuschauen nach langer Untätigkeit beendet: Klicke oder drücke eine Taste, um wieder zuzuschauen.
game-computer-level = Computer (Stufe { $n })
game-you-mark = {" "}(du)
game-waiting-mark = {" "}— wartet auf einen Spieler
game-over = Partie beendet.
game-waiting-opponent = Warte auf einen Gegner.
game-waiting-friend = Warte, bis dein Freund beitritt: Schicke ihm den Einladungslink.
game-thinking = Der Computer denkt nach…
game-your-move = { $color ->
    [white] Du bist am Zug (Weiß).
   *[black] Du bist am Zug (Schwarz).
}
game-waiting-for = { $color ->
    [white] Warte auf Weiß.
   *[black] Warte auf Schwarz.
}
game-watching = { $color ->
    [white] Du schaust zu. Weiß am Zug.
   *[black] Du schaust zu. Schwarz am Zug.
}
game-invite-used = Dieser Einladungslink wurde schon benutzt: Beide Plätze sind besetzt.
game-reviewing = Zug { $ply } von { $of } wird nachgespielt.
game-draw-offered = { $color ->
    [white] Weiß bietet Remis an.
   *[black] Schwarz bietet Remis an.
}
game-rating-diff-title = Wertung { $before } vor der Partie, { $after } danach
game-ratings = Wertungen: { $w }, { $b }.
game-ratings-updating = Gewertete Partie: Die Wertungen werden aktualisiert…
game-rematch-swapped = Revanche (Farben getauscht)
game-offer-rematch = Revanche anbieten
game-rematch-offered = Revanche angeboten: Warte, bis dein Gegner annimmt.
game-rematch-offer = { $who } bietet eine Revanche mit getauschten Farben an.
game-rematch-on = Die Revanche läuft:
game-play-it = spielen
game-watch-it = zuschauen
game-draw-hotseat = Remis vereinbaren? Beide Spieler sitzen an diesem Gerät: Die Partie endet remis.
game-draw-computer = Dem Computer Remis anbieten?
game-draw-opponent = Deinem Gegner Remis anbieten?

## Anmelden und Registrieren

username = Benutzername
password = Passwort
login-title = Chimera — Anmelden
login-og-title = Bei Chimera anmelden
login-description = Melde dich bei Chimera an oder erstelle ein Konto, um gewertete Partien und Fernschach zu spielen.
login-heading = Anmelden oder registrieren
login-new-here = Neu hier? <a href="#signup-panel" id="to-signup">Erstelle ein Konto</a>: Keine E-Mail nötig.
login-create-heading = Ein Konto erstellen
login-signup-about = Ein Konto bewahrt deine Partien: Sie folgen dir auf jedes Gerät, an dem du dich anmeldest. Die Partien, die du in diesem Browser gespielt hast, gehen auf das Konto über.
login-username-hint = 2 bis 20 Buchstaben (A–Z), Ziffern, _ oder -: Er beginnt mit einem Buchstaben, endet mit einem Buchstaben oder einer Ziffer und hat nie zwei _ oder - hintereinander.
login-password-hint = 8 bis 128 Zeichen; kein gängiges Passwort und ohne deinen Benutzernamen. Es gibt kein Zurücksetzen per E-Mail: Bewahre es gut auf.
login-password-again = Passwort wiederholen
login-password-again-hint = Dasselbe Passwort, um sicherzugehen.
login-create = Konto erstellen
login-already = Du bist als { $name } angemeldet.
login-go-account = Zu deinem Konto
login-go-on = Weiter
login-or-else = , oder melde dich unten als jemand anderes an.
login-too-many = Zu viele Fehlversuche: Versuche es in { $s } s erneut.
login-try-again-in = Versuche es in { $s } s erneut.
login-enter-username = Gib deinen Benutzernamen ein.
login-enter-password = Gib dein Passwort ein.
login-passwords-differ = Die beiden Passwörter sind verschieden.
login-welcome = Willkommen, { $name }: Dein Konto ist erstellt.
login-claimed = { $n ->
    [one] { $n } in diesem Browser gespielte Partie gehört jetzt zum Konto.
   *[other] { $n } in diesem Browser gespielte Partien gehören jetzt zum Konto.
}
form-choose-username = Wähle einen Benutzernamen.
form-username-length = Ein Benutzername ist 2 bis 20 Zeichen lang.
form-username-chars = Ein Benutzername darf nur die Buchstaben A–Z, Ziffern, _ und - enthalten.
form-username-start = Ein Benutzername beginnt mit einem Buchstaben.
form-username-end = Ein Benutzername endet mit einem Buchstaben oder einer Ziffer.
form-username-double = Ein Benutzername hat nie zwei _ oder - hintereinander.
form-password-short = Ein Passwort hat mindestens 8 Zeichen.
form-password-long = Ein Passwort hat höchstens 128 Zeichen.
form-password-username = Ein Passwort darf den Benutzernamen nicht enthalten.

## Regeln und Spieler

rating = Wertung
novariant-title = Chimera — keine solche Variante
novariant-heading = Keine solche Variante
rules-title = Chimera — Regeln
rules-og-title = Die Regeln der Varianten auf Chimera
rules-description = Die Regeln des Schachs und seiner Varianten auf Chimera (Genie, Genesis, Clown, Magic Ring), mit Diagrammen und ihren Regeloptionen.
rules-heading = Die Regeln der Varianten
rules-diagrams = Diagramme
rules-play = { $variant } spielen
rules-no-variant = Keine Variante „{ $variant }“
rules-chimera-plays = Chimera spielt:
rules-title-of = Chimera — Regeln von { $variant }
rules-complete = Die vollständigen Regeln von { $variant }
rules-complete-about = : jede Regel, wie Züge notiert werden, und die Lesarten, wo der Text des Erfinders unklar ist (auf Englisch).
rules-diagram-unavailable = (Diagramm nicht verfügbar: { $error })
players-title = Chimera — Spieler
players-og-title = Spieler auf Chimera
players-description = Die Bestenlisten von Chimera: die am besten bewerteten Spieler im Schach und in jeder Variante.
players-who-days = { $n ->
    [one] Aufgeführt: Spieler, deren Wertung gefestigt ist (nicht vorläufig, sonst mit „?“ markiert) und die am letzten Tag eine gewertete Partie der Variante gespielt haben. Eine Wertung ist vorläufig, bis der Spieler genug gewertete Partien gespielt hat, damit sie sicher ist.
   *[other] Aufgeführt: Spieler, deren Wertung gefestigt ist (nicht vorläufig, sonst mit „?“ markiert) und die in den letzten { $n } Tagen eine gewertete Partie der Variante gespielt haben. Eine Wertung ist vorläufig, bis der Spieler genug gewertete Partien gespielt hat, damit sie sicher ist.
}
players-who-months = Aufgeführt: Spieler, deren Wertung gefestigt ist (nicht vorläufig, sonst mit „?“ markiert) und die in den letzten Monaten eine gewertete Partie der Variante gespielt haben. Eine Wertung ist vorläufig, bis der Spieler genug gewertete Partien gespielt hat, damit sie sicher ist.
players-empty = Noch niemand: Spieler erscheinen hier, sobald ihre Wertung gefestigt ist.
players-play-rated = Eine gewertete Partie spielen
players-all = Alle
players-all-label = Alle Spieler von { $variant }
players-all-variants = Alle Varianten
players-no-variant = Chimera hat keine Variante „{ $variant }“.
players-see-all = Die Bestenlisten aller Varianten ansehen
players-title-of = Chimera — Spieler von { $variant }
players-top = { $variant }: die besten Spieler
players-error = Die Bestenlisten konnten nicht gelesen werden: { $error }

## Analysebrett

play-move = { $move } spielen
analysis-title = Chimera — Analysebrett
analysis-og-title = Chimera-Analysebrett
analysis-description = Untersuche jede Stellung des Schachs oder seiner Varianten mit einer Engine: FEN aufbauen, PGN importieren, Nebenvarianten erkunden und exportieren.
analysis-evalbar = Bewertung der Engine (Anteil von Weiß)
analysis-set-position = Stellung setzen
analysis-start-position = Anfangsstellung
analysis-engine = Engine
analysis-auto = nach jedem Zug
analysis-lines = Varianten
analysis-key-start = Anfang (Pos1)
analysis-key-back = Zurück (←)
analysis-key-forward = Vor (→)
analysis-key-end = Ende der Variante (Ende)
analysis-promote = Variante hochstufen
analysis-promote-title = Diese Nebenvariante zur Variante machen, von der sie abzweigt
analysis-delete = Ab hier löschen
analysis-delete-title = Diesen Zug und alles Folgende löschen
analysis-keys-help = Tasten: ← → zurück und vor, Pos1/Ende Anfang und Ende der Variante, ↑ ↓ die Nebenvarianten, f dreht das Brett. Ein Zug aus einer früheren Stellung beginnt eine Nebenvariante; nichts geht verloren.
analysis-pgn-placeholder = PGN hier einfügen und „PGN importieren“ drücken
analysis-import = PGN importieren
analysis-no-position = Keine Stellung: { $error }. Korrigiere die FEN und drücke „Stellung setzen“ oder „Anfangsstellung“.
analysis-stop = Anhalten
analysis-thinking = Denkt nach…
analysis-depth = Tiefe { $n }
explorer = Eröffnungsbuch
explorer-people = Menschen (gewertet)
explorer-engines = Engines und Labor
explorer-none = Keine gespeicherte Partie hat diese Stellung erreicht.
explorer-move = Zug
explorer-wdb = Weiß / Remis / Schwarz
explorer-white-wins = { $n } Siege für Weiß
explorer-draws = { $n } Remis
explorer-black-wins = { $n } Siege für Schwarz
explorer-bar = { $w } % Siege für Weiß, { $d } % Remis, { $b } % Siege für Schwarz
tree-eval-title = Bewertung aus der PGN
tree-clock-title = Uhrzeit aus der PGN

## Computeranalyse, Töne, Brett und Auswahl

review = Computeranalyse
review-what = Die Engine durchsucht jede Stellung der Partie: ein Bewertungsgraph, die Genauigkeit und Fehler jeder Seite und der bessere Zug, wo einer verpasst wurde.
review-running = Die Engine analysiert die Partie…
review-queued = Die Analyse steht in der Warteschlange: Sie beginnt, sobald eine Engine frei ist…
review-failed = Keine Analyse: { $error }
review-asking = Analyse wird angefordert…
review-eval-graph = Bewertungsgraph: Klicke auf einen Punkt, um zu seinem Zug zu gehen
review-time-graph = Zeit pro Zug: Klicke auf einen Balken, um zu seinem Zug zu gehen
review-accuracy = Genauigkeit
review-inaccuracies = Ungenauigkeiten
review-mistakes = Fehler
review-blunders = Patzer
review-inaccuracy = Ungenauigkeit
review-mistake = Fehler
review-blunder = Patzer
review-no-clock = Keine Bedenkzeit in dieser Partie: keine Zugzeiten.
review-at-start = zu Beginn. Klicke auf einen Punkt eines Graphen, um zu seinem Zug zu gehen.
review-better-was = Besser war
review-engine-chose = Die Engine wählte { $move }
review-move-accuracy = Genauigkeit { $n } %
review-count-inaccuracy = { $side }: { $n ->
    [one] { $n } Ungenauigkeit
   *[other] { $n } Ungenauigkeiten
}
review-count-mistake = { $side }: { $n ->
    [one] { $n } Fehler
   *[other] { $n } Fehler
}
review-count-blunder = { $side }: { $n ->
    [one] { $n } Patzer
   *[other] { $n } Patzer
}
review-count-go = { $count }, zum nächsten
review-slider-move = Zug { $move } { $san }, { $eval }
review-slider-start = Anfang, { $eval }
sound-on = Ton: an
sound-off = Ton: aus
sound-on-title = Töne sind an: Klicke, um sie stummzuschalten
sound-off-title = Töne sind aus: Klicke, um sie einzuschalten
board-label = Das Brett
board-reserve = Reserve
board-place-piece = Setze die Figur auf ein markiertes Feld.
board-drop-title = : Klicke oder ziehe sie auf ein markiertes Feld
chooser-title = Wählen
premove-waits = Vorauszug { $from }–{ $to } wartet auf deinen Zug (dann gespielt, wenn legal). Esc oder ein Klick auf ein leeres Feld bricht ihn ab.
premove-note = Vorauszug: Er wird gespielt, wenn du am Zug bist, sofern er dann legal ist. Klicke woandershin oder drücke Esc zum Abbrechen.
piece-pawn = Bauer
piece-knight = Springer
piece-bishop = Läufer
piece-rook = Turm
piece-queen = Dame
piece-king = König
piece-genie = Genie
piece-clown = Clown
ring-title = { $owner ->
    [white] Ring von Weiß
   *[black] Ring von Schwarz
}
ring-captured = { $holder ->
    [white] , von Weiß erobert
   *[black] , von Schwarz erobert
}
ring-level = , Stufe { $level }
ring-grants = , verleiht { $power }
ring-grants-idle = , verleiht { $power } (nicht an einem König)
tainted-title = Verdorbener Bauer: keine Umwandlung, kein Doppelschritt
note-declare = Dieser Springer kann mit diesem Zug zum Clown erklärt werden: Wähle ein Feld, dann entscheide.
note-ringpass = Goldene Kreise: den Ring an diesen Nachbarn weitergeben.
note-promotion = Umwandlung: Du wählst die Figur.
action-flip = Diesen Bauern in einen Genie verwandeln ({ $square })
choice-declare = Zum Clown erklären
choice-declare-title = Diesen Springer zum Clown erklären
choice-stay = Springer bleiben

## Kontoseite

account-title = Chimera — dein Konto
account-og-title = Dein Chimera-Konto
account-description = Dein Chimera-Konto: deine Einstellungen, dein Passwort, API-Tokens und Benachrichtigungen.
account-member-since = Mitglied seit
account-logout = Abmelden
account-logout-all = Überall abmelden
account-logout-all-note = „Überall abmelden“ beendet jede Sitzung dieses Kontos auf jedem Gerät, auch diese.
account-change-password = Passwort ändern
account-current-password = Aktuelles Passwort
account-new-password = Neues Passwort
account-new-password-hint = 8 bis 128 Zeichen; kein gängiges Passwort und ohne deinen Benutzernamen.
account-new-password-again = Neues Passwort wiederholen
account-new-password-again-hint = Dasselbe neue Passwort, um sicherzugehen.
account-password-note = Deine anderen Sitzungen enden, wenn sich das Passwort ändert; diese läuft weiter.
account-tokens = API-Tokens
account-tokens-about = Mit einem Token kann ein Programm über die <a href="/docs/api.md">Bot- und Board-API</a> für dieses Konto spielen (wie mit den Tokens von lichess): eine Engine als BOT-Konto oder dein eigenes Programm oder Terminal. Halte es geheim; widerrufe es, wenn es nicht mehr gebraucht wird.
account-token-what = Wofür es ist
account-token-what-hint = 1 bis 60 Zeichen, damit du deine Tokens auseinanderhalten kannst.
account-token-scopes = Was es darf
account-scope-board = Partien aus einem Programm spielen
account-scope-bot = Als BOT-Konto spielen
account-scope-cread = Herausforderungen lesen
account-scope-cwrite = Herausforderungen stellen und beantworten
account-create-token = Token erstellen
account-token-new = Dein neues Token, nur dieses eine Mal angezeigt: Kopiere es jetzt.
account-copy = Kopieren
account-copied = Kopiert
account-copy-by-hand = Markieren und kopieren
account-your-tokens = Deine API-Tokens
account-token = Token
account-scopes = Rechte
account-created = Erstellt
account-last-used = Zuletzt benutzt
account-never = nie
account-revoke = Widerrufen
account-revoke-label = { $token } widerrufen
account-no-tokens = Noch keine Tokens.
account-data = Deine Daten
account-data-about = Alles, was die Website über dein Konto speichert, zum Aufbewahren oder Mitnehmen.
account-download-data = Meine Daten herunterladen (JSON)
account-download-games = Meine Partien herunterladen (PGN)
account-delete = Konto löschen
account-delete-about = Das Konto und seine Sitzungen sind endgültig weg. Seine Partien bleiben auf der Website, ohne deinen Namen. Der Benutzername kann nicht wieder vergeben werden.
account-delete-confirm = Ich verstehe: Mein Konto wird endgültig gelöscht.
account-delete-submit = Mein Konto löschen
account-read-error = Dein Konto konnte nicht gelesen werden: { $error }
account-tokens-error = Deine Tokens konnten nicht gelesen werden: { $error }
account-token-say = Gib an, wofür das Token ist.
account-token-tick = Kreuze mindestens eine Sache an, die das Token darf.
account-logged-out = Abgemeldet.
account-logged-out-all = Überall abgemeldet.
account-logged-out-all-n = { $n ->
    [one] Überall abgemeldet ({ $n } Sitzung beendet).
   *[other] Überall abgemeldet ({ $n } Sitzungen beendet).
}
account-logged-out-already = Du warst schon abgemeldet.
account-enter-current = Gib dein aktuelles Passwort ein.
account-new-differ = Die beiden neuen Passwörter sind verschieden.
account-password-changed = Passwort geändert. Deine anderen Sitzungen sind abgemeldet; diese läuft weiter.
account-delete-enter = Gib dein Passwort ein, um das Konto zu löschen.
account-delete-tick = Kreuze das Kästchen an, um zu bestätigen, dass das Konto gelöscht werden soll.
account-deleted = Dein Konto ist gelöscht. Seine Partien bleiben, ohne deinen Namen.

## Spielerprofil

profile-title = Chimera — Spieler
profile-og-title = Ein Spielerprofil auf Chimera
profile-description = Die Wertungen eines Chimera-Spielers in jeder Variante, Wertungsverlauf, Ergebnisse und Partiearchiv.
profile-you = Das bist du: <a href="/account">dein Konto</a>.
profile-challenge = Herausfordern:
profile-time = Bedenkzeit
profile-no-clock = Ohne Uhr
profile-days-1 = 1 Tag pro Zug
profile-days-3 = 3 Tage pro Zug
profile-days-7 = 7 Tage pro Zug
profile-send-challenge = Herausforderung senden
profile-in-progress = Deine laufenden Partien
profile-ratings = Wertungen
profile-no-rated = Noch keine gewerteten Partien.
profile-latest = Letzte Partien
profile-found = Gefundene Partien
profile-search-label = Die Partien dieses Spielers durchsuchen
profile-result = Ergebnis
profile-win = Sieg
profile-loss = Niederlage
profile-from = Von
profile-to = Bis
profile-search = Suchen
profile-download = Diese Partien herunterladen (PGN)
profile-date = Datum
profile-pages = Seiten der Partien
profile-newer = Neuere
profile-older = Ältere
profile-page-1 = Seite 1
profile-page = Seite { $n }
profile-page-games = Partien { $from }–{ $to }
profile-page-none = keine Partien
profile-none-page = Keine Partien auf dieser Seite.
profile-none-match = Keine Partie passt zu dieser Suche.
profile-none-yet = Noch keine Partien.
profile-search-failed = Keine Partien: Die Suche konnte nicht ausgeführt werden.
profile-search-wrong = Die Suche stimmt nicht: { $error }
profile-games-error = Die Partien konnten nicht gelesen werden: { $error }
profile-date-partial = Das Datum „{ $field }“ ist nicht vollständig.
profile-date-bad = Das Datum „{ $field }“ ist kein Datum.
profile-date-order = Das Datum „Von“ liegt nach dem Datum „Bis“.
profile-outcome-draw = remis
profile-outcome-won = gewonnen
profile-outcome-lost = verloren
profile-no-history = Noch kein Wertungsverlauf.
profile-graph-title = { $n ->
    [one] { $variant }: Wertungsverlauf über { $n } gewertete Partie, von { $from } auf { $to }
   *[other] { $variant }: Wertungsverlauf über { $n } gewertete Partien, von { $from } auf { $to }
}
profile-provisional = vorläufig
profile-interval = 95-%-Intervall { $lo }–{ $hi }, aus { $n } Kalibrierungspartien
profile-wins = Siege
profile-draws = Remis
profile-losses = Niederlagen
profile-since = Spielt auf Chimera seit dem { $date }.
profile-bot = Ein Haus-Bot: die Engine auf Stufe { $n }. Seine Wertungen sind die
profile-bot-link = gemessene Spielstärke der Stufe
profile-bot-after = ; eine gewertete Partie gegen ihn ändert nur deine Wertung.
profile-error = Die Seite dieses Spielers konnte nicht gelesen werden: { $error }
profile-declined-busy = { $name } hat abgelehnt: beschäftigt, versuche es in einer Minute noch einmal.
profile-declined-clock = { $name } hat abgelehnt: Bots spielen nur mit Uhr.
profile-declined = { $name } hat abgelehnt: { $reason }.
profile-challenge-sent = Herausforderung gesendet: Warte auf die Antwort von { $name }.
profile-cancel-it = Zurückziehen
profile-challenge-cancelled = Herausforderung zurückgezogen.
noplayer-title = Chimera — kein solcher Spieler
noplayer-heading = Kein solcher Spieler
noplayer-text = Es gibt keinen Spieler namens „{ $name }“: Der Name ist vielleicht falsch geschrieben oder das Konto gelöscht.
noplayer-none = Es wurde kein Spieler genannt.
noplayer-leaderboards = Zu den Bestenlisten

## Benachrichtigungen

notes = Benachrichtigungen
notes-unread = Benachrichtigungen: { $n } ungelesen
notes-nothing = Noch nichts.
notes-accept = Annehmen
notes-declined-done = Abgelehnt
notes-no-clock = ohne Uhr
notes-challenge-rated = { $name } fordert dich heraus: { $variant }, { $clock }, gewertet
notes-challenge-casual = { $name } fordert dich heraus: { $variant }, { $clock }, ungewertet
notes-accepted = { $name } hat deine Herausforderung angenommen ({ $variant })
notes-declined = { $name } hat deine Herausforderung abgelehnt: { $reason }
notes-not-now = nicht jetzt
notes-canceled = { $name } hat eine Herausforderung zurückgezogen
notes-seek-taken = { $name } hat deine Herausforderung angenommen ({ $variant })
notes-someone = Jemand
notes-move = { $name } hat { $move } gespielt ({ $variant }): Du bist am Zug
notes-your-opponent = Dein Gegner
notes-over = Deine Partie { $variant } ist beendet: { $result }
notes-over-against = Deine Partie { $variant } gegen { $name } ist beendet: { $result }
push-start = Auf diesem Gerät benachrichtigen
push-stop = Dieses Gerät nicht mehr benachrichtigen
push-cannot = Dieser Browser kann keine Push-Benachrichtigungen empfangen.
push-on = An: Herausforderungen und deine Fernschachzüge erreichen dieses Gerät, auch wenn keine Seite offen ist.
push-off = Auf diesem Gerät aus.
push-timeout = { $what } hat nicht innerhalb von { $s } s geantwortet
push-the-worker = der Service Worker
push-the-service = der Push-Dienst des Browsers
push-read-error = Der Push-Status konnte nicht gelesen werden: { $error }
push-blocked = Benachrichtigungen sind für diese Website blockiert: Erlaube sie in den Website-Einstellungen des Browsers und versuche es dann erneut.
push-denied = Der Browser durfte keine Benachrichtigungen zeigen.
push-none = Dieser Server sendet keine Push-Benachrichtigungen.
push-subscribe-error = Der Browser konnte sich nicht bei seinem Push-Dienst anmelden ({ $error }). Manche Browser haben keinen oder schalten ihn in privaten Fenstern ab.
push-refused = Der Server hat dieses Gerät abgelehnt: { $error }
push-error = Push-Benachrichtigungen: { $error }

## Varianten und Stufen

variant-chess = Schach
summary-chess = Klassisches Schach nach den FIDE-Regeln.
summary-genie = Einmal pro Partie verwandelst du einen deiner Bauern in einen Genie, der ein oder zwei Felder in jede Richtung springt.
summary-genie-ownhalf = Genie Of The Lamp, aber ein Bauer darf nur auf deiner eigenen Bretthälfte verwandelt werden.
summary-clown = Erkläre einen Springer zum Clown, der wie die Figur seiner Linie zieht, und hol eine verlorene Figur zurück.
summary-genesis = Ein leeres Brett: Setze deine Figuren aus der Reserve ein, den König zuerst, und kämpfe, während du aufbaust.
summary-magicring = Ringe an den Königen gewinnen an Kraft, jedes Mal wenn sie den Besitzer wechseln. Gib sie weiter, erobere sie.
level-words-1 = Anfänger: sieht einen Zug voraus und patzt munter
level-words-2 = Gelegenheitsspieler: sieht einfache Schlagzüge, übersieht die meisten Drohungen
level-words-3 = Vereinsneuling: lässt meist keine Figuren hängen
level-words-4 = Vereinsspieler: kurze Taktik, solide Entwicklung
level-words-5 = Starker Vereinsspieler: rechnet ein paar Züge tief
level-words-6 = Experte: bestraft die meisten Fehler
level-words-7 = Meister: volle Stärke, eine halbe Sekunde pro Zug
level-words-8 = Volle Stärke: das Beste der Engine, eine Sekunde pro Zug
option-ring-powers = Ringkräfte
option-ring-powers-help = Die Kraft jeder Ringstufe, der Reihe nach: 1 bis 8 Buchstaben aus Q R B N K (Standard QNRB).

## The screen-reader mode (blind.js). Typed commands and move notation stay as they are.
blind-title = Screenreader-Modus
blind-move-label = Dein Zug oder ein Befehl
blind-play = Ziehen
blind-short-help = Gib einen Zug so ein, wie ihn die Zugliste schreibt (Nf3, exd5, O-O, Gd2, K@e1, !Nb4, Nc3(!C), e1~d2), oder in UCI (g1f3), dann drücke Enter. Befehle: b Brett, r Reihen, s Variantenstand, c Uhren, l letzter Zug, m legale Züge (m e2: von e2), t wer am Zug ist, h Hilfe.
blind-read-aloud = Vorlesen
blind-announcements = Ansagen
blind-help-title = Alle Befehle
blind-confirm-label = Vor dem Senden eines getippten Zugs nachfragen
blind-button-board = Brett
blind-button-ranks = Reihen
blind-button-state = Variantenstand
blind-button-clocks = Uhren
blind-button-last = Letzter Zug
blind-button-legal = Legale Züge
blind-button-turn = Wer ist am Zug
blind-help-b = das Brett als Figurenlisten: erst die weißen Figuren, dann die schwarzen
blind-help-r = das Brett Reihe für Reihe, von der 8. Reihe abwärts (Weiß unten)
blind-help-s = der Stand der Variante: Genie-Verwandlungen, Reserven, Hände und Wiedereinsetzungen, Ringe, ihre Stufen und Kräfte
blind-help-c = beide Uhren
blind-help-l = der letzte Zug
blind-help-m = alle legalen Züge; m e2 die der Figur auf e2; m @ (oder m N) die Einsetzungen und Wiedereinsetzungen
blind-help-t = wer am Zug ist, und der Stand der Partie
blind-help-h = diese Hilfe
blind-help-up = der Pfeil nach oben im Feld holt den zuletzt getippten Text zurück
blind-help-tab = die Knöpfe der Partie folgen auf das Brett: aufgeben, Remis anbieten, Zug zurücknehmen, Brett drehen, analysieren, Revanche
blind-white = Weiß
blind-black = Schwarz
blind-pawn = Bauer
blind-knight = Springer
blind-bishop = Läufer
blind-rook = Turm
blind-queen = Dame
blind-king = König
blind-genie = Genie
blind-clown = Clown
blind-pawns = Bauern
blind-knights = Springer
blind-bishops = Läufer
blind-rooks = Türme
blind-queens = Damen
blind-kings = Könige
blind-genies = Genies
blind-clowns = Clowns
blind-castle-short = kurze Rochade
blind-castle-long = lange Rochade
blind-takes = schlägt
blind-from = von
blind-to = nach
blind-promotes = Umwandlung in { $role }
blind-check = Schach
blind-mate = Schachmatt
blind-placed = { $role } eingesetzt auf { $square }
blind-reenters = { $role } kehrt zurück auf { $square }
blind-flips = Bauer auf { $square } wird zum Genie
blind-declared = zum Clown erklärt
blind-ring-pass = Ring weitergegeben von { $from } nach { $to }
blind-ring-of = Ring von { $side }
blind-played = { $side } spielte { $words } ({ $san }).
blind-you-played = Du spieltest { $words } ({ $san }).
blind-sent = Sende { $words }…
blind-confirm = { $words } ({ $san }) spielen? Enter bestätigt, Escape bricht ab.
blind-cancelled = Zug abgebrochen.
blind-not-your-turn = Du bist nicht am Zug.
blind-not-playing = Du spielst in dieser Partie nicht mit: Du kannst sie lesen, aber nicht ziehen.
blind-not-active = Die Partie ist vorbei: keine Züge mehr.
blind-reviewing = Nicht in der aktuellen Stellung: Drücke zuerst Ende (oder den Knopf zum letzten Zug).
blind-illegal = Kein legaler Zug: { $move }. { $why }.
blind-changed = Die Stellung hat sich inzwischen geändert: Gib deinen Zug noch einmal ein.
blind-failed = Der Zug konnte nicht geprüft werden: { $error }
blind-empty = Gib einen Zug oder einen Befehl ein (h für Hilfe).
blind-board = { $side }: { $list }.
blind-board-empty = { $side }: keine Figuren auf dem Brett.
blind-rank = Reihe { $n }: { $list }.
blind-rank-empty = Reihe { $n }: leer.
# A piece in a list: its square, its side, its kind (“e1 White king”).
blind-square-piece = { $square } { $role } ({ $side })
# A Genie standing on the board, in the variant’s state (“White genie d2”).
blind-genie-at = { $role } von { $side } auf { $square }
blind-reserve-name = Reserve
blind-reserve = { $name }, { $side }: { $list }.
blind-reserve-empty = { $name }, { $side }: leer.
blind-no-state = Diese Partie hat keinen Variantenstand außer dem Brett.
blind-clock = { $side } { $time }
blind-clock-running = { $side } { $time }, läuft
blind-no-clock = Diese Partie hat keine Uhr.
blind-clock-low = Deine Uhr: noch { $time }.
blind-no-move-yet = Es wurde noch kein Zug gespielt.
blind-last = Zug { $n }, { $side }: { $words } ({ $san }).
blind-legal = { $n ->
    [one] { $n } legaler Zug: { $list }.
   *[other] { $n } legale Züge: { $list }.
}
blind-no-legal = Hier gibt es keine legalen Züge.
blind-none-from = Kein legaler Zug von { $square }.
# Placements counted per piece; “m N” lists them ($letter: the piece’s letter).
blind-placements = { $n ->
    [one] { $role } einsetzbar auf { $n } Feld (m { $letter } zählt es auf)
   *[other] { $role } einsetzbar auf jedes von { $n } Feldern (m { $letter } zählt sie auf)
}
blind-your-move = Du bist am Zug ({ $side }).
blind-their-move = { $side } ist am Zug.
blind-thinking = Der Computer denkt nach.
blind-waiting-seat = Warte auf einen Gegner, der den anderen Platz einnimmt.
blind-you-play = Du spielst { $side }.
blind-watching = Du schaust dieser Partie zu.
blind-joined = Dein Gegner ist beigetreten: Die Partie läuft.
blind-over = Partie vorbei: { $who } durch { $reason } ({ $result }).
blind-white-wins = Weiß gewinnt
blind-black-wins = Schwarz gewinnt
blind-draw = Remis
blind-draw-offer = { $side } bietet Remis an: Die Knöpfe Remis annehmen und Ablehnen folgen in der Partieleiste.
blind-draw-gone = Das Remisangebot steht nicht mehr.
blind-rematch-offer = { $side } bietet eine Revanche an.
blind-takeback = Zurückgenommen: Die Partie steht wieder bei Zug { $n }.
blind-seconds = { $n ->
    [one] { $n } Sekunde
   *[other] { $n } Sekunden
}
blind-minutes = { $n ->
    [one] { $n } Minute
   *[other] { $n } Minuten
}

## The lessons (learn.html, lesson.html, learn-index.js, learn.js). The lessons’ own texts stay in English.
learn-title = Chimera — die Regeln lernen
learn-description = Kurze interaktive Lektionen zu jeder Sonderregel von Schach, Genie Of The Lamp, Genesis, Clown und Magic Ring Chess, auf dem echten Brett.
learn-og-title = Die Regeln lernen auf Chimera
learn-heading = Die Regeln lernen
learn-lead = Jede Sonderregel jedes Spiels, eine kurze Aufgabe nach der anderen, auf dem echten Brett. Dein Fortschritt bleibt in diesem Browser gespeichert und, wenn du angemeldet bist, in deinem Konto.
learn-steps-done = { $all ->
    [one] { $done } von { $all } Schritt erledigt
   *[other] { $done } von { $all } Schritten erledigt
}
learn-start = Beginnen
learn-go-on = Weitermachen
learn-again = Noch einmal
learn-failed = Die Lektionen konnten nicht geladen werden: { $error }
learn-lesson-page-title = Chimera — Lektionen
learn-lesson-description = Lerne die Sonderregeln des Schachs und seiner Varianten Schritt für Schritt auf dem echten Brett: Jede Aufgabe wird nach den Regeln bewertet, mit einem Tipp und einer Erklärung.
learn-lesson-og-title = Chimera-Lektionen
learn-lessons = Lektionen
learn-all-lessons = Alle Lektionen
learn-hint = Tipp
learn-retry = Schritt neu beginnen
learn-next-step = Nächster Schritt
learn-next-lesson = Nächste Lektion
learn-type-move = Oder tippe einen Zug
learn-play = Ziehen
learn-steps = Schritte
learn-variant-title = { $name } lernen
learn-step = Schritt { $n } von { $all }
learn-to-play = { $side ->
    [w] Weiß am Zug.
   *[b] Schwarz am Zug.
}
learn-correct = Richtig!
learn-wrong = Nicht ganz.
learn-reply = Die Antwort: { $san }.
learn-lesson-done = Lektion geschafft!
learn-all-done = Du hast jede Lektion dieses Spiels abgeschlossen.
# Before the lesson’s hint (in English).
learn-hint-is = Tipp:
# A step in the list of steps, for screen readers ($task: the step’s task, in English).
learn-step-label = Schritt { $n }: { $task }
learn-step-label-done = Schritt { $n }: { $task } (erledigt)

## Puzzles (puzzles.html, puzzle.html, puzzles-index.js, puzzles.js)
puzzles-title = Chimera — Schachaufgaben
puzzles-description = Aufgaben für Schach und seine Varianten: Finde den einen Gewinnzug, mit einer Aufgabenwertung für jedes Spiel.
puzzles-og-title = Schachaufgaben auf Chimera
puzzles-heading = Aufgaben
puzzles-lead = Jede Aufgabe hat genau einen Gewinnzug: Finde ihn. Nach deinem Zug siehst du die Variante der Engine. Jede Runde ist eine gewertete Partie zwischen dir und der Aufgabe.
puzzles-count = { $n ->
    [one] eine Aufgabe
   *[other] { $n } Aufgaben
}
puzzles-none-yet = Diese Sammlung hat noch keine Aufgaben.
puzzles-daily = Aufgabe des Tages
puzzles-solve = Lösen
puzzles-your-rating = Deine Aufgabenwertung: { $rating }
puzzles-no-rating = Noch keine Aufgabenwertung: Löse eine Aufgabe.
puzzles-log-in = Melde dich an, um eine Aufgabenwertung zu bekommen.
puzzles-failed = Die Aufgaben konnten nicht geladen werden: { $error }
puzzles-themes = Motive
puzzles-set-name = { $name }
puzzles-set-name-options = { $name }, { $options }
puzzles-ring-powers = Ringkräfte { $powers }
puzzle-page-title = Chimera — eine Aufgabe
puzzle-description = Finde den einen Gewinnzug auf dem echten Brett; deine Aufgabenwertung ändert sich mit jedem ersten Versuch.
puzzle-og-title = Eine Chimera-Aufgabe
puzzle-heading = Aufgabe
puzzle-all-sets = Alle Aufgabensammlungen
puzzle-view-solution = Lösung zeigen
puzzle-retry = Noch einmal versuchen
puzzle-next = Nächste Aufgabe
puzzle-type-move = Oder tippe einen Zug
puzzle-play = Ziehen
puzzle-set-title = Aufgaben: { $name }
puzzle-daily-title = Aufgabe des Tages: { $name }
puzzle-task = { $side ->
    [w] Weiß am Zug: Finde den Gewinnzug.
   *[b] Schwarz am Zug: Finde den Gewinnzug.
}
puzzle-rating = Aufgabenwertung { $rating }, { $plays ->
    [0] noch nie gespielt
    [one] einmal gespielt
   *[other] { $plays }-mal gespielt
}
puzzle-themes = Motive: { $themes }
puzzle-replay = Du hast diese Aufgabe schon gespielt: Diese Runde wird nicht gewertet.
puzzle-waiting = Die Engine antwortet auf deinen Zug …
puzzle-correct = Richtig! { $move } gewinnt.
puzzle-wrong = Falsch: { $move } gewinnt nicht.
puzzle-refutation = Die Antwort: { $line }
puzzle-gave-up = Du hast dir die Lösung zeigen lassen: eine verlorene Runde.
puzzle-solution = Der Gewinnzug: { $move }. Die Variante: { $line }
puzzle-rating-change = Deine Aufgabenwertung: { $rating } ({ $diff })
puzzle-not-rated = Nicht gewertet: Du hattest diese Aufgabe schon gespielt.
puzzle-theme-mate = Matt
puzzle-theme-mate-help = Der Gewinnzug erzwingt Matt.
puzzle-theme-matein1 = Matt in 1
puzzle-theme-matein1-help = Matt in einem Zug.
puzzle-theme-matein2 = Matt in 2
puzzle-theme-matein2-help = Matt in zwei Zügen.
puzzle-theme-matein3 = Matt in 3
puzzle-theme-matein3-help = Matt in drei Zügen.
puzzle-theme-matein4 = Matt in 4
puzzle-theme-matein4-help = Matt in vier Zügen.
puzzle-theme-matein5 = Matt in 5
puzzle-theme-matein5-help = Matt in fünf Zügen.
puzzle-theme-material = Material
puzzle-theme-material-help = Die Variante gewinnt mindestens zwei Bauern an Material.
puzzle-theme-crushing = Vernichtend
puzzle-theme-crushing-help = Kein Matt, aber ein Vorsprung von sechs Bauern oder mehr.
puzzle-theme-advantage = Vorteil
puzzle-theme-advantage-help = Kein Matt, ein Vorsprung von drei bis sechs Bauern.
puzzle-theme-check = Schach
puzzle-theme-check-help = Der Gewinnzug gibt Schach.
puzzle-theme-capture = Schlagen
puzzle-theme-capture-help = Der Gewinnzug schlägt eine Figur.
puzzle-theme-quiet = Stiller Zug
puzzle-theme-quiet-help = Der Gewinnzug schlägt nicht, gibt kein Schach und verwandelt nicht.
puzzle-theme-promotion = Umwandlung
puzzle-theme-promotion-help = Der Gewinnzug verwandelt einen Bauern.
puzzle-theme-flip = Verwandlung in den Genie
puzzle-theme-flip-help = Genie: Der Gewinnzug verwandelt einen Bauern in einen Genie.
puzzle-theme-placement = Einsetzen
puzzle-theme-placement-help = Genesis: Der Gewinnzug setzt eine Figur aus der Reserve ein.
puzzle-theme-declaration = Erklärung
puzzle-theme-declaration-help = Clown: Der Gewinnzug erklärt einen Springer zum Clown.
puzzle-theme-reentry = Rückkehr
puzzle-theme-reentry-help = Clown: Der Gewinnzug bringt eine geschlagene Figur zurück.
puzzle-theme-ringpass = Ringübergabe
puzzle-theme-ringpass-help = Magic Ring: Der Gewinnzug gibt einen Ring weiter.
puzzle-theme-ringpower = Ringkraft
puzzle-theme-ringpower-help = Magic Ring: Den Gewinnzug kann die Figur nur dank der Kraft ihres Rings machen.
puzzle-theme-geniemove = Genie
puzzle-theme-geniemove-help = Genie: Der Gewinnzug ist ein Zug des Genies.
puzzle-theme-clownmove = Clown
puzzle-theme-clownmove-help = Clown: Der Gewinnzug ist ein Zug des Clowns.
