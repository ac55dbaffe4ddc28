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
status = Stand
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
hdr-players = Spieler
hdr-lab = Labor
hdr-your-account = Dein Konto
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
lobby-mode-hotseat = Am selben Gerät (dieses Gerät)
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
lobby-waiting = { $n } warten
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
