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
bot-title = Un programme : il joue par l’API Bot
bot-busy = { $name } est occupé : réessayez dans une minute
bot-declined = { $name } a refusé ({ $reason })

## L’en-tête et le panneau « Apparence »

hdr-site = Site
hdr-play = Jouer
hdr-analysis = Échiquier d’analyse
hdr-rules = Règles
hdr-players = Joueurs
hdr-lab = Labo
hdr-your-account = Votre compte
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
lobby-heading = Chimera : jouer aux échecs et à leurs variantes
lobby-description = Jouez aux échecs, à Genie, Genesis, Clown et Magic Ring Chess en ligne : contre l’ordinateur, un ami, un inconnu ou sur un seul appareil, avec pendule, classement et échiquier d’analyse. Libre et gratuit.
lobby-new-game = Nouvelle partie
lobby-your-name = Votre nom
lobby-your-name-hint = (visible des autres ; retenu dans ce navigateur)
lobby-mode-engine = Ordinateur
lobby-mode-seek = Un inconnu (défi ouvert)
lobby-mode-friend = Un ami (lien d’invitation)
lobby-mode-hotseat = Sur un seul appareil (celui-ci)
lobby-rated-hint = Une partie classée modifie le classement des deux joueurs. Elle se joue selon les règles propres de la variante depuis sa position de départ : les options de règles restent à leurs valeurs par défaut.
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
lobby-days-hint = Chaque coup peut prendre ce temps ; un coup rend tout le temps. La partie vous attend entre vos visites, sur tout appareil où vous vous connectez.
lobby-days-login = <a href="/login">Connectez-vous</a> pour jouer par correspondance (jours par coup).
lobby-create = Créer la partie
lobby-play-stranger = Jouer contre un inconnu
lobby-quick = Appariement rapide
lobby-quick-about = Une partie classée de la variante choisie sous « Nouvelle partie » contre un joueur proche de votre classement, dès qu’il y en a un. Le nombre indique combien attendent.
lobby-quick-login = <a href="/login">Connectez-vous</a> pour être apparié : les parties rapides sont classées.
lobby-waiting = { $n } en attente
lobby-looking = Recherche d’un adversaire à { $range } points de votre classement ({ $s } s)…
lobby-looking-in = Recherche d’un adversaire en { $variant } { $clock } à { $range } points de votre classement ({ $s } s)…
lobby-your-games-about = Vos parties en cours : d’abord celles où c’est à vous de jouer, l’échéance la plus proche en premier.
lobby-seeks = Défis ouverts
lobby-seeks-about = Des parties qui attendent un adversaire : n’importe qui peut prendre la place libre, premier arrivé, premier servi. Créez-en une avec <em>Un inconnu</em> ci-dessus ; les parties entre amis restent privées. Une partie <span class="tag rated">classée</span>, et un défi avec une fourchette de classement, demandent un compte.
lobby-mode = Type
lobby-you-play = Vous jouez
lobby-action = Action
lobby-games-about = Les vôtres sont marquées <span class="tag mine">à vous</span>. Ouvrez-en une pour la reprendre ou la revoir coup par coup. Ou ouvrez l’<a href="/analysis">échiquier d’analyse</a> pour étudier une position ou une PGN importée.
lobby-friends = (entre amis)
lobby-no-games = Aucune partie pour l’instant : créez-en une.
lobby-own-start = (départ propre)
lobby-open = Ouvrir
lobby-login-to-join = Se connecter pour rejoindre
lobby-out-of-range = Hors fourchette
lobby-out-of-range-why = Pour les joueurs classés de { $lo } à { $hi } : le vôtre est { $rating }
lobby-join = Rejoindre
lobby-seek-range = Seuls les joueurs classés de { $lo } à { $hi } peuvent rejoindre
lobby-bot = Bot
lobby-bot-title = Un bot de la maison : le moteur à un niveau mesuré
lobby-no-seeks = Aucun défi ouvert pour l’instant : créez-en un avec « Un inconnu ».

## Pages manquantes, hors ligne

nogame-title = Chimera — partie introuvable
nogame-og-title = Partie introuvable sur Chimera
nogame-description = Cette partie Chimera n’existe pas : le lien est peut-être mal écrit ou la partie a disparu. Lancez une nouvelle partie depuis le salon.
nogame-heading = Partie introuvable
nogame-text = Il n’y a pas de partie à cette adresse : le lien est peut-être mal écrit ou tronqué, ou la partie était un défi ouvert que son créateur a annulé.
notfound-title = Chimera — page introuvable
notfound-og-title = Page introuvable sur Chimera
notfound-description = Il n’y a pas de page Chimera à cette adresse : le lien est peut-être mal écrit ou périmé.
notfound-heading = Page introuvable
notfound-text = Il n’y a pas de page à cette adresse : le lien est peut-être mal écrit ou périmé.
offline-title = Chimera — hors ligne
offline-og-title = Chimera : hors ligne
offline-description = Chimera ne joint pas son serveur : cet appareil est hors ligne. La page revient avec le réseau.
offline-og-description = Chimera ne joint pas son serveur : cet appareil est hors ligne.
offline-heading = Vous êtes hors ligne
offline-text = Chimera ne joint pas son serveur : cet appareil n’a pas de réseau, ou le serveur est injoignable pour l’instant. Les parties continuent sur le serveur ; une partie en cours reprend là où elle en était à votre retour.
offline-retry = Réessayer
