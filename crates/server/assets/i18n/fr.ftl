# Les mots de Chimera en français (référence : en.ftl ; docs/server.md, « Languages »).

## Mots communs

anonymous = Anonyme
variant = Variante
opponent = Adversaire
rated = Classée
casual = Amicale
white = Blancs
black = Noirs
random = Au hasard
clock = Pendule
clock-none = Aucune
correspondence = Par correspondance
cancel = Annuler
your-games = Vos parties
game = Partie
games = Parties
turn = Trait
time-left = Temps restant
player = Joueur
players = Joueurs
moves = Coups
status = État
last-move = Dernier coup
yours = à vous
playing = en cours
hot-seat = Sur un seul appareil
log-in = Se connecter
your-turn = À vous de jouer
their-turn = À l’adversaire
waiting-for-opponent = en attente d’un adversaire
go-to-lobby = Aller au salon
level-n = Niveau { $n }
computer-n = Ordinateur { $n }
a-v-b = { $a } contre { $b }
n-days = { $n ->
    [one] { $n } jour
   *[other] { $n } jours
}
days-a-move = { $n ->
    [one] { $n } jour par coup
   *[other] { $n } jours par coup
}
clock-days-hours = { $d ->
    [one] { $d } jour { $h } h
   *[other] { $d } jours { $h } h
}
clock-hours-minutes = { $h } h { $m } min
name-too-long = Un nom compte 20 caractères au plus.
name-bad-chars = Un nom ne peut contenir que des lettres, des chiffres, des espaces simples et - _ . '
bot-title = Un programme : il joue par l’API Bot
bot-busy = { $name } est occupé : réessayez dans une minute
bot-declined = { $name } a refusé ({ $reason })

## L’en-tête et le panneau « Apparence »

hdr-site = Site
hdr-play = Jouer
hdr-analysis = Échiquier d’analyse
hdr-rules = Règles
hdr-learn = Apprendre
hdr-puzzles = Problèmes
hdr-players = Joueurs
hdr-lab = Labo
hdr-your-account = Votre compte
hdr-skip = Aller au contenu de la page
blind-mode = Mode lecteur d’écran
look = Apparence
look-label = L’apparence du site
look-colours = Couleurs
look-system = Comme le système
look-dark = Sombre
look-light = Clair
look-board = Échiquier
look-brown = Marron
look-blue = Bleu
look-green = Vert
look-grey = Gris
look-pieces = Pièces
look-classic = Classiques
look-discs = Disques
look-language = Langue

## Le salon

lobby-title = Chimera — jouer aux échecs et à leurs variantes
lobby-heading = Chimera : jouer aux échecs et à leurs variantes
lobby-description = Jouez aux échecs, à Genie, Genesis, Clown et Magic Ring Chess en ligne : contre l’ordinateur, un ami, un inconnu ou sur un seul appareil, avec pendule, classement et échiquier d’analyse. Libre et gratuit.
lobby-new-game = Nouvelle partie
lobby-your-name = Votre nom
lobby-your-name-hint = (visible des autres ; retenu dans ce navigateur)
lobby-mode-engine = Ordinateur
lobby-mode-seek = Un inconnu (défi ouvert)
lobby-mode-friend = Un ami (lien d’invitation)
lobby-mode-hotseat = Sur un seul appareil (celui-ci)
lobby-rated-hint = Une partie classée modifie le classement des deux joueurs. Elle se joue selon les règles propres de la variante depuis sa position de départ : les options de règles restent à leurs valeurs par défaut.
lobby-rated-login = <a href="/login">Connectez-vous</a> pour jouer des parties classées.
lobby-range = Classement de l’adversaire
lobby-range-any = Indifférent
lobby-range-100 = Le vôtre ± 100
lobby-range-200 = Le vôtre ± 200
lobby-range-300 = Le vôtre ± 300
lobby-range-500 = Le vôtre ± 500
lobby-range-only = Seuls les joueurs classés de { $lo } à { $hi } dans cette variante peuvent rejoindre.
lobby-range-anyone = Tout le monde peut rejoindre.
lobby-level = Niveau de l’ordinateur
lobby-your-colour = Votre couleur
lobby-clock-timed = Minutes + incrément
lobby-minutes = Minutes
lobby-minutes-bad = Les minutes doivent faire un nombre entier de secondes, de 0,25 (15 s) à 180.
lobby-increment = Incrément (s)
lobby-days = Jours par coup
lobby-days-1 = 1 jour
lobby-days-2 = 2 jours
lobby-days-3 = 3 jours
lobby-days-5 = 5 jours
lobby-days-7 = 7 jours
lobby-days-14 = 14 jours
lobby-days-hint = Chaque coup peut prendre ce temps ; un coup rend tout le temps. La partie vous attend entre vos visites, sur tout appareil où vous vous connectez.
lobby-days-login = <a href="/login">Connectez-vous</a> pour jouer par correspondance (jours par coup).
lobby-create = Créer la partie
lobby-play-stranger = Jouer contre un inconnu
lobby-quick = Appariement rapide
lobby-quick-about = Une partie classée de la variante choisie sous « Nouvelle partie » contre un joueur proche de votre classement, dès qu’il y en a un. Le nombre indique combien attendent.
lobby-quick-login = <a href="/login">Connectez-vous</a> pour être apparié : les parties rapides sont classées.
lobby-waiting = { $n } en attente
lobby-looking = Recherche d’un adversaire à { $range } points de votre classement ({ $s } s)…
lobby-looking-in = Recherche d’un adversaire en { $variant } { $clock } à { $range } points de votre classement ({ $s } s)…
lobby-your-games-about = Vos parties en cours : d’abord celles où c’est à vous de jouer, l’échéance la plus proche en premier.
lobby-seeks = Défis ouverts
lobby-seeks-about = Des parties qui attendent un adversaire : n’importe qui peut prendre la place libre, premier arrivé, premier servi. Créez-en une avec <em>Un inconnu</em> ci-dessus ; les parties entre amis restent privées. Une partie <span class="tag rated">classée</span>, et un défi avec une fourchette de classement, demandent un compte.
lobby-mode = Type
lobby-you-play = Vous jouez
lobby-action = Action
lobby-games-about = Les vôtres sont marquées <span class="tag mine">à vous</span>. Ouvrez-en une pour la reprendre ou la revoir coup par coup. Ou ouvrez l’<a href="/analysis">échiquier d’analyse</a> pour étudier une position ou une PGN importée.
lobby-friends = (entre amis)
lobby-no-games = Aucune partie pour l’instant : créez-en une.
lobby-own-start = (départ propre)
lobby-open = Ouvrir
lobby-login-to-join = Se connecter pour rejoindre
lobby-out-of-range = Hors fourchette
lobby-out-of-range-why = Pour les joueurs classés de { $lo } à { $hi } : le vôtre est { $rating }
lobby-join = Rejoindre
lobby-seek-range = Seuls les joueurs classés de { $lo } à { $hi } peuvent rejoindre
lobby-bot = Bot
lobby-bot-title = Un bot de la maison : le moteur à un niveau mesuré
lobby-no-seeks = Aucun défi ouvert pour l’instant : créez-en un avec « Un inconnu ».

## Pages manquantes, hors ligne

nogame-title = Chimera — partie introuvable
nogame-og-title = Partie introuvable sur Chimera
nogame-description = Cette partie Chimera n’existe pas : le lien est peut-être mal écrit ou la partie a disparu. Lancez une nouvelle partie depuis le salon.
nogame-heading = Partie introuvable
nogame-text = Il n’y a pas de partie à cette adresse : le lien est peut-être mal écrit ou tronqué, ou la partie était un défi ouvert que son créateur a annulé.
notfound-title = Chimera — page introuvable
notfound-og-title = Page introuvable sur Chimera
notfound-description = Il n’y a pas de page Chimera à cette adresse : le lien est peut-être mal écrit ou périmé.
notfound-heading = Page introuvable
notfound-text = Il n’y a pas de page à cette adresse : le lien est peut-être mal écrit ou périmé.
offline-title = Chimera — hors ligne
offline-og-title = Chimera : hors ligne
offline-description = Chimera ne joint pas son serveur : cet appareil est hors ligne. La page revient avec le réseau.
offline-og-description = Chimera ne joint pas son serveur : cet appareil est hors ligne.
offline-heading = Vous êtes hors ligne
offline-text = Chimera ne joint pas son serveur : cet appareil n’a pas de réseau, ou le serveur est injoignable pour l’instant. Les parties continuent sur le serveur ; une partie en cours reprend là où elle en était à votre retour.
offline-retry = Réessayer

## La page de partie

yes = Oui
no = Non
decline = Refuser
flip = Retourner l’échiquier
flip-title = Retourner l’échiquier
nav-first = Position de départ
nav-prev = Coup précédent
nav-next = Coup suivant
nav-last = Position actuelle
provisional-title = Classement provisoire : il se stabilise après d’autres parties classées
result-white-wins = Les Blancs gagnent
result-black-wins = Les Noirs gagnent
result-draw = Nulle
result-by = { $who } par { $reason }
reason-checkmate = échec et mat
reason-stalemate = pat
reason-threefold = triple répétition
reason-fifty = règle des cinquante coups
reason-dead-material = matériel insuffisant
reason-resignation = abandon
reason-timeout = temps écoulé
reason-agreement = accord mutuel
reason-aborted = annulation
game-title = Chimera — partie
game-og-title = Une partie sur Chimera
game-description = Une partie d’échecs ou d’une de leurs variantes sur Chimera : regardez-la en direct, jouez votre place ou revoyez-la coup par coup.
game-seat-free = Une place est libre dans cette partie.
game-join = Rejoindre cette partie
game-send-link = Envoyez ce lien à votre ami :
game-accept-draw = Accepter la nulle
game-seek-wait = En attente d’un inconnu pour l’autre place : cette partie figure dans les défis ouverts du salon jusqu’à ce que quelqu’un la rejoigne, ou que vous annuliez ou partiez.
game-cancel-seek = Annuler le défi
game-accept-rematch = Accepter la revanche
game-rematch = Revanche
game-resign = Abandonner
game-really-resign = Vraiment abandonner ?
game-offer-draw = Proposer la nulle
game-takeback = Reprendre le coup
game-analyse = Analyser
game-export-pgn = Exporter la PGN
game-not-connected = Pas de connexion : reconnexion…
game-idle = Suivi arrêté après une longue inactivité : cliquez ou appuyez sur une touche pour regarder à nouveau.
game-computer-level = Ordinateur (niveau { $n })
game-you-mark = {" "}(vous)
game-waiting-mark = {" "}— en attente d’un joueur
game-over = Partie terminée.
game-waiting-opponent = En attente d’un adversaire.
game-waiting-friend = En attente de votre ami : envoyez-lui le lien d’invitation.
game-thinking = L’ordinateur réfléchit…
game-your-move = { $color ->
    [white] À vous de jouer (Blancs).
   *[black] À vous de jouer (Noirs).
}
game-waiting-for = { $color ->
    [white] En attente des Blancs.
   *[black] En attente des Noirs.
}
game-watching = { $color ->
    [white] Vous regardez. Trait aux Blancs.
   *[black] Vous regardez. Trait aux Noirs.
}
game-invite-used = Ce lien d’invitation a déjà servi : les deux places sont prises.
game-reviewing = Revue du coup { $ply } sur { $of }.
game-draw-offered = { $color ->
    [white] Les Blancs proposent la nulle.
   *[black] Les Noirs proposent la nulle.
}
game-rating-diff-title = Classement { $before } avant la partie, { $after } après
game-ratings = Classements : { $w }, { $b }.
game-ratings-updating = Partie classée : mise à jour des classements…
game-rematch-swapped = Revanche (couleurs inversées)
game-offer-rematch = Proposer une revanche
game-rematch-offered = Revanche proposée : en attente de l’accord de votre adversaire.
game-rematch-offer = { $who } propose une revanche, couleurs inversées.
game-rematch-on = La revanche est lancée :
game-play-it = la jouer
game-watch-it = la regarder
game-draw-hotseat = Convenir de la nulle ? Les deux joueurs sont sur cet appareil : la partie se termine par une nulle.
game-draw-computer = Proposer la nulle à l’ordinateur ?
game-draw-opponent = Proposer la nulle à votre adversaire ?

## Connexion et inscription

username = Nom d’utilisateur
password = Mot de passe
login-title = Chimera — connexion
login-og-title = Se connecter à Chimera
login-description = Connectez-vous à Chimera, ou créez un compte pour jouer des parties classées et par correspondance.
login-heading = Se connecter ou s’inscrire
login-new-here = Nouveau ici ? <a href="#signup-panel" id="to-signup">Créez un compte</a> : pas besoin d’e-mail.
login-create-heading = Créer un compte
login-signup-about = Un compte garde vos parties : elles vous suivent sur tout appareil où vous vous connectez. Les parties jouées dans ce navigateur passent au compte.
login-username-hint = De 2 à 20 lettres (A–Z), chiffres, _ ou - : il commence par une lettre, finit par une lettre ou un chiffre, et n’a jamais deux _ ou - à la suite.
login-password-hint = De 8 à 128 caractères ; pas un mot de passe courant, et sans votre nom d’utilisateur. Il n’y a pas de réinitialisation par e-mail : gardez-le bien.
login-password-again = Confirmer le mot de passe
login-password-again-hint = Le même mot de passe, pour en être sûr.
login-create = Créer le compte
login-already = Vous êtes connecté en tant que { $name }.
login-go-account = Aller à votre compte
login-go-on = Continuer
login-or-else = , ou connectez-vous ci-dessous sous un autre nom.
login-too-many = Trop d’échecs : réessayez dans { $s } s.
login-try-again-in = Réessayez dans { $s } s.
login-enter-username = Saisissez votre nom d’utilisateur.
login-enter-password = Saisissez votre mot de passe.
login-passwords-differ = Les deux mots de passe diffèrent.
login-welcome = Bienvenue, { $name } : votre compte est créé.
login-claimed = { $n ->
    [one] { $n } partie jouée dans ce navigateur appartient désormais au compte.
   *[other] { $n } parties jouées dans ce navigateur appartiennent désormais au compte.
}
form-choose-username = Choisissez un nom d’utilisateur.
form-username-length = Un nom d’utilisateur compte de 2 à 20 caractères.
form-username-chars = Un nom d’utilisateur ne contient que les lettres A–Z, des chiffres, _ et -.
form-username-start = Un nom d’utilisateur commence par une lettre.
form-username-end = Un nom d’utilisateur finit par une lettre ou un chiffre.
form-username-double = Un nom d’utilisateur n’a jamais deux _ ou - à la suite.
form-password-short = Un mot de passe compte au moins 8 caractères.
form-password-long = Un mot de passe compte au plus 128 caractères.
form-password-username = Un mot de passe ne peut pas contenir le nom d’utilisateur.

## Règles et joueurs

rating = Classement
novariant-title = Chimera — variante introuvable
novariant-heading = Variante introuvable
rules-title = Chimera — règles
rules-og-title = Les règles des variantes sur Chimera
rules-description = Les règles des échecs et de leurs variantes jouées sur Chimera (Genie, Genesis, Clown, Magic Ring), avec diagrammes et options de règles.
rules-heading = Les règles des variantes
rules-diagrams = Diagrammes
rules-play = Jouer à { $variant }
rules-no-variant = Pas de variante « { $variant } »
rules-chimera-plays = Chimera propose :
rules-title-of = Chimera — règles de { $variant }
rules-complete = Les règles complètes de { $variant }
rules-complete-about = : chaque règle, la notation des coups, et les lectures retenues là où le texte de l’inventeur est flou (en anglais).
rules-diagram-unavailable = (diagramme indisponible : { $error })
players-title = Chimera — joueurs
players-og-title = Les joueurs sur Chimera
players-description = Les classements de Chimera : les meilleurs joueurs d’échecs et de chaque variante.
players-who-days = { $n ->
    [one] Figurent ici les joueurs dont le classement est établi (non provisoire, marqué « ? » ailleurs) et qui ont joué une partie classée de la variante le dernier jour. Un classement reste provisoire tant que le joueur n’a pas joué assez de parties classées pour qu’il soit sûr.
   *[other] Figurent ici les joueurs dont le classement est établi (non provisoire, marqué « ? » ailleurs) et qui ont joué une partie classée de la variante dans les { $n } derniers jours. Un classement reste provisoire tant que le joueur n’a pas joué assez de parties classées pour qu’il soit sûr.
}
players-who-months = Figurent ici les joueurs dont le classement est établi (non provisoire, marqué « ? » ailleurs) et qui ont joué une partie classée de la variante ces derniers mois. Un classement reste provisoire tant que le joueur n’a pas joué assez de parties classées pour qu’il soit sûr.
players-empty = Personne pour l’instant : les joueurs apparaissent ici une fois leur classement établi.
players-play-rated = Jouer une partie classée
players-all = Tous
players-all-label = Tous les joueurs de { $variant }
players-all-variants = Toutes les variantes
players-no-variant = Chimera n’a pas de variante « { $variant } ».
players-see-all = Voir le classement de chaque variante
players-title-of = Chimera — joueurs de { $variant }
players-top = { $variant } : les meilleurs joueurs
players-error = Impossible de lire les classements : { $error }

## L’échiquier d’analyse

play-move = Jouer { $move }
analysis-title = Chimera — échiquier d’analyse
analysis-og-title = Échiquier d’analyse Chimera
analysis-description = Étudiez toute position des échecs ou de leurs variantes avec un moteur : posez une FEN, importez une PGN, explorez des variantes et exportez-les.
analysis-evalbar = Évaluation du moteur (part des Blancs)
analysis-set-position = Poser la position
analysis-start-position = Position de départ
analysis-engine = Moteur
analysis-auto = après chaque coup
analysis-lines = Lignes
analysis-key-start = Début (Origine)
analysis-key-back = Reculer (←)
analysis-key-forward = Avancer (→)
analysis-key-end = Fin de la ligne (Fin)
analysis-promote = Promouvoir la ligne
analysis-promote-title = Faire de cette variante la ligne dont elle part
analysis-delete = Supprimer d’ici
analysis-delete-title = Supprimer ce coup et la suite
analysis-keys-help = Touches : ← → reculer et avancer, Origine/Fin début et fin de la ligne, ↑ ↓ les variantes, f retourne l’échiquier. Un coup joué depuis une position antérieure ouvre une variante ; rien n’est perdu.
analysis-pgn-placeholder = Collez une PGN ici puis appuyez sur « Importer la PGN »
analysis-import = Importer la PGN
analysis-no-position = Pas de position : { $error }. Corrigez la FEN et appuyez sur « Poser la position », ou sur « Position de départ ».
analysis-stop = Arrêter
analysis-thinking = Réflexion…
analysis-depth = profondeur { $n }
explorer = Explorateur d’ouvertures
explorer-people = Humains (classées)
explorer-engines = Moteurs et labo
explorer-none = Aucune partie enregistrée n’a atteint cette position.
explorer-move = Coup
explorer-wdb = Blancs / nulle / Noirs
explorer-white-wins = { $n } victoires des Blancs
explorer-draws = { $n } nulles
explorer-black-wins = { $n } victoires des Noirs
explorer-bar = { $w } % victoires des Blancs, { $d } % nulles, { $b } % victoires des Noirs
tree-eval-title = Évaluation tirée de la PGN
tree-clock-title = Pendule tirée de la PGN

## L’analyse par ordinateur, les sons, l’échiquier et ses choix

review = Analyse par ordinateur
review-what = Le moteur examine chaque position de la partie : un graphique d’évaluation, la précision et les erreurs de chaque camp, et le meilleur coup là où il a été manqué.
review-running = Le moteur analyse la partie…
review-queued = L’analyse est en file d’attente : elle commence dès qu’un moteur est libre…
review-failed = Pas d’analyse : { $error }
review-asking = Demande d’analyse…
review-eval-graph = Graphique d’évaluation : cliquez sur un point pour aller à son coup
review-time-graph = Temps par coup : cliquez sur une barre pour aller à son coup
review-accuracy = Précision
review-inaccuracies = Imprécisions
review-mistakes = Erreurs
review-blunders = Gaffes
review-inaccuracy = Imprécision
review-mistake = Erreur
review-blunder = Gaffe
review-no-clock = Pas de pendule dans cette partie : pas de temps par coup.
review-at-start = au départ. Cliquez sur un point d’un graphique pour aller à son coup.
review-better-was = Mieux valait
review-engine-chose = Le moteur a choisi { $move }
review-move-accuracy = précision { $n } %
review-count-inaccuracy = { $side } : { $n ->
    [one] { $n } imprécision
   *[other] { $n } imprécisions
}
review-count-mistake = { $side } : { $n ->
    [one] { $n } erreur
   *[other] { $n } erreurs
}
review-count-blunder = { $side } : { $n ->
    [one] { $n } gaffe
   *[other] { $n } gaffes
}
review-count-go = { $count }, aller à la suivante
review-slider-move = Coup { $move } { $san }, { $eval }
review-slider-start = Début, { $eval }
sound-on = Son : activé
sound-off = Son : coupé
sound-on-title = Les sons sont activés : cliquez pour les couper
sound-off-title = Les sons sont coupés : cliquez pour les activer
board-label = L’échiquier
board-reserve = Réserve
board-place-piece = Posez la pièce sur une case en surbrillance.
board-drop-title = : cliquez ou glissez-la sur une case en surbrillance
chooser-title = Choisir
premove-waits = Le pré-coup { $from }–{ $to } attend votre tour (joué alors s’il est légal). Échap ou un clic sur une case vide l’annule.
premove-note = Pré-coup : il est joué à votre tour, s’il est alors légal. Cliquez ailleurs ou appuyez sur Échap pour l’annuler.
piece-pawn = Pion
piece-knight = Cavalier
piece-bishop = Fou
piece-rook = Tour
piece-queen = Dame
piece-king = Roi
piece-genie = Genie
piece-clown = Clown
ring-title = { $owner ->
    [white] Anneau des Blancs
   *[black] Anneau des Noirs
}
ring-captured = { $holder ->
    [white] , pris par les Blancs
   *[black] , pris par les Noirs
}
ring-level = , niveau { $level }
ring-grants = , confère { $power }
ring-grants-idle = , confère { $power } (pas sur un Roi)
tainted-title = Pion souillé : pas de promotion, pas de double pas
note-declare = Ce Cavalier peut être déclaré Clown avec ce coup : choisissez une case, puis décidez.
note-ringpass = Cercles dorés : passer l’anneau à ce voisin.
note-promotion = Promotion : vous choisirez la pièce.
action-flip = Changer ce pion en Genie ({ $square })
choice-declare = Déclarer un Clown
choice-declare-title = Déclarer ce Cavalier Clown
choice-stay = Rester Cavalier

## La page du compte

account-title = Chimera — votre compte
account-og-title = Votre compte Chimera
account-description = Votre compte Chimera : vos réglages, votre mot de passe, vos jetons d’API et vos notifications.
account-member-since = Membre depuis
account-logout = Se déconnecter
account-logout-all = Se déconnecter partout
account-logout-all-note = « Se déconnecter partout » ferme chaque session de ce compte, sur chaque appareil, celui-ci compris.
account-change-password = Changer le mot de passe
account-current-password = Mot de passe actuel
account-new-password = Nouveau mot de passe
account-new-password-hint = De 8 à 128 caractères ; pas un mot de passe courant, et sans votre nom d’utilisateur.
account-new-password-again = Confirmer le nouveau mot de passe
account-new-password-again-hint = Le même nouveau mot de passe, pour en être sûr.
account-password-note = Vos autres sessions se ferment quand le mot de passe change ; celle-ci continue.
account-tokens = Jetons d’API
account-tokens-about = Un jeton permet à un programme de jouer pour ce compte par l’<a href="/docs/api.md">API Bot et Board</a> (comme les jetons de lichess) : un moteur en compte BOT, ou votre propre programme ou terminal. Gardez-le secret ; révoquez-le quand il ne sert plus.
account-token-what = À quoi il sert
account-token-what-hint = De 1 à 60 caractères, pour distinguer vos jetons.
account-token-scopes = Ce qu’il peut faire
account-scope-board = Jouer des parties depuis un programme
account-scope-bot = Jouer en tant que compte BOT
account-scope-cread = Lire les défis
account-scope-cwrite = Lancer des défis et y répondre
account-create-token = Créer le jeton
account-token-new = Votre nouveau jeton, affiché une seule fois : copiez-le maintenant.
account-copy = Copier
account-copied = Copié
account-copy-by-hand = Sélectionnez-le et copiez-le
account-your-tokens = Vos jetons d’API
account-token = Jeton
account-scopes = Droits
account-created = Créé
account-last-used = Dernière utilisation
account-never = jamais
account-revoke = Révoquer
account-revoke-label = Révoquer { $token }
account-no-tokens = Aucun jeton pour l’instant.
account-data = Vos données
account-data-about = Tout ce que le site garde de votre compte, à conserver ou à emporter ailleurs.
account-download-data = Télécharger mes données (JSON)
account-download-games = Télécharger mes parties (PGN)
account-delete = Supprimer le compte
account-delete-about = Le compte et ses sessions disparaissent pour de bon. Ses parties restent sur le site, sans votre nom. Le nom d’utilisateur ne pourra plus être pris.
account-delete-confirm = Je comprends : mon compte est supprimé pour de bon.
account-delete-submit = Supprimer mon compte
account-read-error = Impossible de lire votre compte : { $error }
account-tokens-error = Impossible de lire vos jetons : { $error }
account-token-say = Indiquez à quoi sert le jeton.
account-token-tick = Cochez au moins une chose que le jeton peut faire.
account-logged-out = Déconnecté.
account-logged-out-all = Déconnecté partout.
account-logged-out-all-n = { $n ->
    [one] Déconnecté partout ({ $n } session fermée).
   *[other] Déconnecté partout ({ $n } sessions fermées).
}
account-logged-out-already = Vous étiez déjà déconnecté.
account-enter-current = Saisissez votre mot de passe actuel.
account-new-differ = Les deux nouveaux mots de passe diffèrent.
account-password-changed = Mot de passe changé. Vos autres sessions sont fermées ; celle-ci continue.
account-delete-enter = Saisissez votre mot de passe pour supprimer le compte.
account-delete-tick = Cochez la case pour confirmer la suppression du compte.
account-deleted = Votre compte est supprimé. Ses parties restent, sans votre nom.

## Le profil d’un joueur

profile-title = Chimera — joueur
profile-og-title = Le profil d’un joueur sur Chimera
profile-description = Les classements d’un joueur Chimera dans chaque variante, l’historique de son classement, ses résultats et ses archives de parties.
profile-you = C’est vous : <a href="/account">votre compte</a>.
profile-challenge = Défier
profile-time = Cadence
profile-no-clock = Sans pendule
profile-days-1 = 1 jour par coup
profile-days-3 = 3 jours par coup
profile-days-7 = 7 jours par coup
profile-send-challenge = Envoyer le défi
profile-in-progress = Vos parties en cours
profile-ratings = Classements
profile-no-rated = Aucune partie classée pour l’instant.
profile-latest = Dernières parties
profile-found = Parties trouvées
profile-search-label = Chercher dans les parties de ce joueur
profile-result = Résultat
profile-win = Victoire
profile-loss = Défaite
profile-from = Du
profile-to = Au
profile-search = Chercher
profile-download = Télécharger ces parties (PGN)
profile-date = Date
profile-pages = Pages de parties
profile-newer = Plus récentes
profile-older = Plus anciennes
profile-page-1 = Page 1
profile-page = Page { $n }
profile-page-games = parties { $from } à { $to }
profile-page-none = aucune partie
profile-none-page = Aucune partie sur cette page.
profile-none-match = Aucune partie ne correspond à cette recherche.
profile-none-yet = Aucune partie pour l’instant.
profile-search-failed = Aucune partie affichée : la recherche n’a pas pu aboutir.
profile-search-wrong = La recherche n’est pas valable : { $error }
profile-games-error = Impossible de lire les parties : { $error }
profile-date-partial = La date « { $field } » est incomplète.
profile-date-bad = La date « { $field } » n’est pas une date.
profile-date-order = La date « Du » est après la date « Au ».
profile-outcome-draw = nulle
profile-outcome-won = gagnée
profile-outcome-lost = perdue
profile-no-history = Pas encore d’historique de classement.
profile-graph-title = { $n ->
    [one] { $variant } : historique du classement sur { $n } partie classée, de { $from } à { $to }
   *[other] { $variant } : historique du classement sur { $n } parties classées, de { $from } à { $to }
}
profile-provisional = provisoire
profile-interval = intervalle à 95 % { $lo }–{ $hi }, d’après { $n } parties d’étalonnage
profile-wins = Victoires
profile-draws = Nulles
profile-losses = Défaites
profile-since = Joue sur Chimera depuis le { $date }.
profile-bot = Un bot de la maison : le moteur au niveau { $n }. Ses classements sont la
profile-bot-link = force mesurée du niveau
profile-bot-after = ; une partie classée contre lui ne modifie que votre classement.
profile-error = Impossible de lire la page de ce joueur : { $error }
profile-declined-busy = { $name } a refusé : occupé, réessayez dans une minute.
profile-declined-clock = { $name } a refusé : les bots ne jouent qu’avec une pendule.
profile-declined = { $name } a refusé : { $reason }.
profile-challenge-sent = Défi envoyé : en attente de la réponse de { $name }.
profile-cancel-it = L’annuler
profile-challenge-cancelled = Défi annulé.
noplayer-title = Chimera — joueur introuvable
noplayer-heading = Joueur introuvable
noplayer-text = Il n’y a pas de joueur nommé « { $name } » : le nom est peut-être mal écrit, ou le compte supprimé.
noplayer-none = Aucun joueur n’a été nommé.
noplayer-leaderboards = Voir les classements

## Notifications

notes = Notifications
notes-unread = Notifications : { $n } non lues
notes-nothing = Rien pour l’instant.
notes-accept = Accepter
notes-declined-done = Refusé
notes-no-clock = sans pendule
notes-challenge-rated = { $name } vous défie : { $variant }, { $clock }, classée
notes-challenge-casual = { $name } vous défie : { $variant }, { $clock }, amicale
notes-accepted = { $name } a accepté votre défi ({ $variant })
notes-declined = { $name } a refusé votre défi : { $reason }
notes-not-now = pas maintenant
notes-canceled = { $name } a annulé un défi
notes-seek-taken = { $name } a relevé votre défi ({ $variant })
notes-someone = Quelqu’un
notes-move = { $name } a joué { $move } ({ $variant }) : à vous de jouer
notes-your-opponent = Votre adversaire
notes-over = Votre partie de { $variant } est terminée : { $result }
notes-over-against = Votre partie de { $variant } contre { $name } est terminée : { $result }
push-start = M’avertir sur cet appareil
push-stop = Ne plus avertir cet appareil
push-cannot = Ce navigateur ne peut pas recevoir de notifications push.
push-on = Activé : les défis et vos coups par correspondance arrivent sur cet appareil même sans page ouverte.
push-off = Désactivé sur cet appareil.
push-timeout = { $what } n’a pas répondu en { $s } s
push-the-worker = le service worker
push-the-service = le service push du navigateur
push-read-error = Impossible de lire l’état des notifications push : { $error }
push-blocked = Les notifications sont bloquées pour ce site : autorisez-les dans les réglages du site du navigateur, puis réessayez.
push-denied = Le navigateur n’a pas été autorisé à afficher des notifications.
push-none = Ce serveur n’envoie pas de notifications push.
push-subscribe-error = Le navigateur n’a pas pu s’abonner à son service push ({ $error }). Certains navigateurs n’en ont pas, ou le coupent en navigation privée.
push-refused = Le serveur a refusé cet appareil : { $error }
push-error = Notifications push : { $error }

## Les variantes et les niveaux

variant-chess = Échecs
summary-chess = Les échecs orthodoxes selon les règles de la FIDE.
summary-genie = Une fois par partie, changez un de vos pions en Genie qui bondit d’une ou deux cases dans toutes les directions.
summary-genie-ownhalf = Genie Of The Lamp, mais un pion ne peut être changé que dans votre moitié de l’échiquier.
summary-clown = Déclarez Clown un Cavalier, qui se déplace comme la pièce de sa colonne, et ramenez une pièce perdue.
summary-genesis = Un échiquier vide : posez vos pièces depuis la réserve, le Roi d’abord, et combattez en construisant.
summary-magicring = Les anneaux des Rois gagnent en puissance à chaque changement de main. Passez-les, prenez-les.
level-words-1 = Débutant : voit un coup à l’avance et gaffe volontiers
level-words-2 = Amateur : repère les prises simples, manque la plupart des menaces
level-words-3 = Joueur de club débutant : évite le plus souvent de laisser des pièces en prise
level-words-4 = Joueur de club : tactique courte, développement régulier
level-words-5 = Bon joueur de club : calcule quelques coups à l’avance
level-words-6 = Expert : punit la plupart des erreurs
level-words-7 = Maître : pleine force, une demi-seconde par coup
level-words-8 = Pleine force : le meilleur du moteur, une seconde par coup
option-ring-powers = Pouvoirs des anneaux
option-ring-powers-help = Le pouvoir de chaque niveau d’anneau, dans l’ordre : 1 à 8 lettres parmi Q R B N K (par défaut QNRB).

## The screen-reader mode (blind.js). Typed commands and move notation stay as they are.
blind-title = Mode lecteur d’écran
blind-move-label = Votre coup, ou une commande
blind-play = Jouer
blind-short-help = Tapez un coup comme l’écrit la liste des coups (Nf3, exd5, O-O, Gd2, K@e1, !Nb4, Nc3(!C), e1~d2) ou en UCI (g1f3), puis appuyez sur Entrée. Commandes : b échiquier, r rangées, s état de la variante, c pendules, l dernier coup, m coups légaux (m e2 : depuis e2), t à qui le trait, h aide.
blind-read-aloud = Lire
blind-announcements = Annonces
blind-help-title = Toutes les commandes
blind-confirm-label = Demander avant d’envoyer un coup tapé
blind-button-board = Échiquier
blind-button-ranks = Rangées
blind-button-state = État de la variante
blind-button-clocks = Pendules
blind-button-last = Dernier coup
blind-button-legal = Coups légaux
blind-button-turn = À qui le trait
blind-help-b = l’échiquier en listes de pièces : celles des Blancs, puis celles des Noirs
blind-help-r = l’échiquier rangée par rangée, de la 8e rangée vers le bas (les Blancs en bas)
blind-help-s = l’état de la variante : transformations en Genie, réserves, mains et retours, anneaux, leurs niveaux et pouvoirs
blind-help-c = les deux pendules
blind-help-l = le dernier coup
blind-help-m = tous les coups légaux ; m e2 ceux de la pièce en e2 ; m @ (ou m N) les placements et retours
blind-help-t = à qui est le trait, et l’état de la partie
blind-help-h = cette aide
blind-help-up = la flèche vers le haut dans le champ rappelle le dernier texte tapé
blind-help-tab = les boutons de la partie suivent l’échiquier : abandonner, proposer la nulle, reprendre le coup, retourner, analyser, revanche
blind-white = Blancs
blind-black = Noirs
blind-pawn = pion
blind-knight = cavalier
blind-bishop = fou
blind-rook = tour
blind-queen = dame
blind-king = roi
blind-genie = Genie
blind-clown = Clown
blind-pawns = pions
blind-knights = cavaliers
blind-bishops = fous
blind-rooks = tours
blind-queens = dames
blind-kings = rois
blind-genies = Genies
blind-clowns = Clowns
blind-castle-short = petit roque
blind-castle-long = grand roque
blind-takes = prend
blind-from = de
blind-to = vers
blind-promotes = promotion en { $role }
blind-check = échec
blind-mate = échec et mat
blind-placed = placement : { $role } en { $square }
blind-reenters = { $role } revient en { $square }
blind-flips = le pion en { $square } devient un Genie
blind-declared = déclaré Clown
blind-ring-pass = anneau passé de { $from } à { $to }
blind-ring-of = anneau des { $side }
blind-played = Les { $side } ont joué { $words } ({ $san }).
blind-you-played = Vous avez joué { $words } ({ $san }).
blind-sent = Envoi de { $words }…
blind-confirm = Jouer { $words } ({ $san }) ? Entrée pour confirmer, Échap pour annuler.
blind-cancelled = Coup annulé.
blind-not-your-turn = Ce n’est pas à vous de jouer.
blind-not-playing = Vous ne jouez pas dans cette partie : vous pouvez la lire, pas jouer.
blind-not-active = La partie est terminée : plus de coups.
blind-reviewing = Pas à la position actuelle : appuyez d’abord sur Fin (ou sur le bouton du dernier coup).
blind-illegal = Coup illégal : { $move }. { $why }.
blind-changed = La position a changé entre-temps : tapez à nouveau votre coup.
blind-failed = Le coup n’a pas pu être vérifié : { $error }
blind-empty = Tapez un coup ou une commande (h pour l’aide).
blind-board = { $side } : { $list }.
blind-board-empty = { $side } : aucune pièce sur l’échiquier.
blind-rank = Rangée { $n } : { $list }.
blind-rank-empty = Rangée { $n } : vide.
# A piece in a list: its square, its side, its kind (“e1 White king”).
blind-square-piece = { $square } { $role } ({ $side })
# A Genie standing on the board, in the variant’s state (“White genie d2”).
blind-genie-at = { $role } des { $side } en { $square }
blind-reserve-name = Réserve
blind-reserve = { $name }, { $side } : { $list }.
blind-reserve-empty = { $name }, { $side } : vide.
blind-no-state = Cette partie n’a pas d’état de variante au-delà de l’échiquier.
blind-clock = { $side } { $time }
blind-clock-running = { $side } { $time }, en marche
blind-no-clock = Cette partie n’a pas de pendule.
blind-clock-low = Votre pendule : encore { $time }.
blind-no-move-yet = Aucun coup n’a encore été joué.
blind-last = Coup { $n }, { $side } : { $words } ({ $san }).
blind-legal = { $n ->
    [one] { $n } coup légal : { $list }.
   *[other] { $n } coups légaux : { $list }.
}
blind-no-legal = Aucun coup légal ici.
blind-none-from = Aucun coup légal depuis { $square }.
# Placements counted per piece; “m N” lists them ($letter: the piece’s letter).
blind-placements = { $n ->
    [one] { $role } à placer sur { $n } case (m { $letter } la donne)
   *[other] { $role } à placer sur l’une de { $n } cases (m { $letter } les liste)
}
blind-your-move = À vous de jouer ({ $side }).
blind-their-move = Trait aux { $side }.
blind-thinking = L’ordinateur réfléchit.
blind-waiting-seat = En attente d’un adversaire pour prendre l’autre place.
blind-you-play = Vous jouez les { $side }.
blind-watching = Vous regardez cette partie.
blind-joined = Votre adversaire est arrivé : la partie commence.
blind-over = Partie terminée : { $who } par { $reason } ({ $result }).
blind-white-wins = victoire des Blancs
blind-black-wins = victoire des Noirs
blind-draw = nulle
blind-draw-offer = Les { $side } proposent la nulle : les boutons Accepter la nulle et Refuser suivent dans le panneau de la partie.
blind-draw-gone = La proposition de nulle n’est plus sur la table.
blind-rematch-offer = Les { $side } proposent une revanche.
blind-takeback = Coup repris : la partie revient au coup { $n }.
blind-seconds = { $n ->
    [one] { $n } seconde
   *[other] { $n } secondes
}
blind-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}

## The lessons (learn.html, lesson.html, learn-index.js, learn.js). The lessons’ own texts stay in English.
learn-title = Chimera — apprendre les règles
learn-description = De courtes leçons interactives pour chaque règle spéciale des échecs, de Genie Of The Lamp, Genesis, Clown et Magic Ring Chess, sur le vrai échiquier.
learn-og-title = Apprendre les règles sur Chimera
learn-heading = Apprendre les règles
learn-lead = Chaque règle spéciale de chaque jeu, une courte tâche à la fois, sur le vrai échiquier. Votre progression est gardée dans ce navigateur, et dans votre compte quand vous êtes connecté.
learn-steps-done = { $done ->
    [one] { $done } étape sur { $all } faite
   *[other] { $done } étapes sur { $all } faites
}
learn-start = Commencer
learn-go-on = Continuer
learn-again = Rejouer
learn-failed = Les leçons n’ont pas pu être chargées : { $error }
learn-lesson-page-title = Chimera — leçons
learn-lesson-description = Apprenez pas à pas les règles spéciales des échecs et de leurs variantes, sur le vrai échiquier : chaque tâche jugée par les règles, avec un indice et une explication.
learn-lesson-og-title = Leçons de Chimera
learn-lessons = Leçons
learn-all-lessons = Toutes les leçons
learn-hint = Indice
learn-retry = Recommencer l’étape
learn-next-step = Étape suivante
learn-next-lesson = Leçon suivante
learn-type-move = Ou tapez un coup
learn-play = Jouer
learn-steps = Étapes
learn-variant-title = Apprendre { $name }
learn-step = Étape { $n } sur { $all }
learn-to-play = { $side ->
    [w] Trait aux Blancs.
   *[b] Trait aux Noirs.
}
learn-correct = Correct !
learn-wrong = Pas tout à fait.
learn-reply = La réponse : { $san }.
learn-lesson-done = Leçon terminée !
learn-all-done = Vous avez terminé toutes les leçons de ce jeu.
# Before the lesson’s hint (in English).
learn-hint-is = Indice :
# A step in the list of steps, for screen readers ($task: the step’s task, in English).
learn-step-label = Étape { $n } : { $task }
learn-step-label-done = Étape { $n } : { $task } (faite)

## Puzzles (puzzles.html, puzzle.html, puzzles-index.js, puzzles.js)
puzzles-title = Chimera — problèmes
puzzles-description = Des problèmes pour les échecs et leurs variantes : trouvez le seul coup gagnant, avec un classement de problèmes pour chaque jeu.
puzzles-og-title = Problèmes sur Chimera
puzzles-heading = Problèmes
puzzles-lead = Chaque problème a un seul coup gagnant : trouvez-le. Après votre coup, vous voyez la suite du moteur. Chaque essai est une partie classée entre vous et le problème.
puzzles-count = { $n ->
    [one] un problème
   *[other] { $n } problèmes
}
puzzles-none-yet = Cette série n’a pas encore de problèmes.
puzzles-daily = Problème du jour
puzzles-solve = Résoudre
puzzles-your-rating = Votre classement de problèmes : { $rating }
puzzles-no-rating = Pas encore de classement de problèmes : résolvez-en un.
puzzles-log-in = Connectez-vous pour obtenir un classement de problèmes.
puzzles-failed = Les problèmes n’ont pas pu être chargés : { $error }
puzzles-themes = Thèmes
puzzles-set-name = { $name }
puzzles-set-name-options = { $name }, { $options }
puzzles-ring-powers = pouvoirs de l’anneau { $powers }
puzzle-page-title = Chimera — un problème
puzzle-description = Trouvez le seul coup gagnant, sur le vrai échiquier ; votre classement de problèmes change à chaque premier essai.
puzzle-og-title = Un problème Chimera
puzzle-heading = Problème
puzzle-all-sets = Toutes les séries de problèmes
puzzle-view-solution = Voir la solution
puzzle-retry = Réessayer
puzzle-next = Problème suivant
puzzle-type-move = Ou tapez un coup
puzzle-play = Jouer
puzzle-set-title = Problèmes : { $name }
puzzle-daily-title = Problème du jour : { $name }
puzzle-task = { $side ->
    [w] Trait aux Blancs : trouvez le coup gagnant.
   *[b] Trait aux Noirs : trouvez le coup gagnant.
}
puzzle-rating = Classement du problème { $rating }, { $plays ->
    [0] jamais joué
    [one] joué une fois
   *[other] joué { $plays } fois
}
puzzle-themes = Thèmes : { $themes }
puzzle-replay = Vous avez déjà joué ce problème : cet essai n’est pas classé.
puzzle-waiting = Le moteur répond à votre coup…
puzzle-correct = Correct ! { $move } gagne.
puzzle-wrong = Faux : { $move } ne gagne pas.
puzzle-refutation = La réponse : { $line }
puzzle-gave-up = Vous avez demandé la solution : un essai perdu.
puzzle-solution = Le coup gagnant : { $move }. La suite : { $line }
puzzle-rating-change = Votre classement de problèmes : { $rating } ({ $diff })
puzzle-not-rated = Pas classé : vous aviez déjà joué ce problème.
puzzle-theme-mate = Mat
puzzle-theme-mate-help = Le coup gagnant force le mat.
puzzle-theme-matein1 = Mat en 1
puzzle-theme-matein1-help = Mat en un coup.
puzzle-theme-matein2 = Mat en 2
puzzle-theme-matein2-help = Mat en deux coups.
puzzle-theme-matein3 = Mat en 3
puzzle-theme-matein3-help = Mat en trois coups.
puzzle-theme-matein4 = Mat en 4
puzzle-theme-matein4-help = Mat en quatre coups.
puzzle-theme-matein5 = Mat en 5
puzzle-theme-matein5-help = Mat en cinq coups.
puzzle-theme-material = Matériel
puzzle-theme-material-help = La suite gagne au moins l’équivalent de deux pions.
puzzle-theme-crushing = Écrasant
puzzle-theme-crushing-help = Pas de mat, mais une avance de six pions ou plus.
puzzle-theme-advantage = Avantage
puzzle-theme-advantage-help = Pas de mat, une avance de trois à six pions.
puzzle-theme-check = Échec
puzzle-theme-check-help = Le coup gagnant donne échec.
puzzle-theme-capture = Prise
puzzle-theme-capture-help = Le coup gagnant prend une pièce.
puzzle-theme-quiet = Coup tranquille
puzzle-theme-quiet-help = Le coup gagnant ne prend pas, ne donne pas échec et ne promeut pas.
puzzle-theme-promotion = Promotion
puzzle-theme-promotion-help = Le coup gagnant promeut un pion.
puzzle-theme-flip = Transformation en Génie
puzzle-theme-flip-help = Genie : le coup gagnant transforme un pion en Génie.
puzzle-theme-placement = Placement
puzzle-theme-placement-help = Genesis : le coup gagnant place une pièce de la réserve.
puzzle-theme-declaration = Déclaration
puzzle-theme-declaration-help = Clown : le coup gagnant déclare un Cavalier Clown.
puzzle-theme-reentry = Retour
puzzle-theme-reentry-help = Clown : le coup gagnant fait revenir une pièce prise.
puzzle-theme-ringpass = Passe de l’anneau
puzzle-theme-ringpass-help = Magic Ring : le coup gagnant passe un anneau.
puzzle-theme-ringpower = Pouvoir de l’anneau
puzzle-theme-ringpower-help = Magic Ring : la pièce ne peut jouer le coup gagnant que grâce au pouvoir de son anneau.
puzzle-theme-geniemove = Genie
puzzle-theme-geniemove-help = Genie : le coup gagnant est un coup du Genie.
puzzle-theme-clownmove = Clown
puzzle-theme-clownmove-help = Clown : le coup gagnant est un coup du Clown.
