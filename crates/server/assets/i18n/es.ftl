# Las palabras de Chimera en español (referencia: en.ftl; docs/server.md, «Languages»).

## Palabras comunes

anonymous = Anónimo
variant = Variante
opponent = Rival
rated = Por puntos
casual = Amistosa
white = Blancas
black = Negras
random = Al azar
clock = Reloj
clock-none = Sin reloj
correspondence = Por correspondencia
cancel = Cancelar
your-games = Tus partidas
game = Partida
games = Partidas
turn = Turno
time-left = Tiempo restante
player = Jugador
players = Jugadores
moves = Jugadas
status = Estado
last-move = Última jugada
yours = tuya
playing = en juego
hot-seat = En un solo dispositivo
log-in = Iniciar sesión
your-turn = Te toca
their-turn = Le toca al rival
waiting-for-opponent = esperando a un rival
go-to-lobby = Ir al vestíbulo
level-n = Nivel { $n }
computer-n = Ordenador { $n }
a-v-b = { $a } contra { $b }
n-days = { $n ->
    [one] { $n } día
   *[other] { $n } días
}
days-a-move = { $n ->
    [one] { $n } día por jugada
   *[other] { $n } días por jugada
}
clock-days-hours = { $d ->
    [one] { $d } día { $h } h
   *[other] { $d } días { $h } h
}
clock-hours-minutes = { $h } h { $m } min
name-too-long = Un nombre tiene 20 caracteres como máximo.
name-bad-chars = Un nombre solo puede tener letras, cifras, espacios simples y - _ . '
bot-title = Un programa: juega mediante la API de bots
bot-busy = { $name } está ocupado: inténtalo de nuevo en un minuto
bot-declined = { $name } ha rechazado ({ $reason })

## La cabecera y el panel «Aspecto»

hdr-site = Sitio
hdr-play = Jugar
hdr-analysis = Tablero de análisis
hdr-rules = Reglas
hdr-learn = Aprender
hdr-puzzles = Problemas
hdr-players = Jugadores
hdr-lab = Laboratorio
hdr-your-account = Tu cuenta
hdr-skip = Ir al contenido de la página
blind-mode = Modo lector de pantalla
look = Aspecto
look-label = El aspecto del sitio
look-colours = Colores
look-system = Como el sistema
look-dark = Oscuro
look-light = Claro
look-board = Tablero
look-brown = Marrón
look-blue = Azul
look-green = Verde
look-grey = Gris
look-pieces = Piezas
look-classic = Clásicas
look-discs = Discos
look-language = Idioma

## El vestíbulo

lobby-title = Chimera — juega al ajedrez y sus variantes
lobby-heading = Chimera: juega al ajedrez y sus variantes
lobby-description = Juega al ajedrez, Genie, Genesis, Clown y Magic Ring Chess en línea: contra el ordenador, un amigo, un desconocido o en un solo dispositivo, con reloj, puntuación y tablero de análisis. Libre y de código abierto.
lobby-new-game = Nueva partida
lobby-your-name = Tu nombre
lobby-your-name-hint = (visible para los demás; se recuerda en este navegador)
lobby-mode-engine = Ordenador
lobby-mode-seek = Un desconocido (desafío abierto)
lobby-mode-friend = Un amigo (enlace de invitación)
lobby-mode-hotseat = En un solo dispositivo (este)
lobby-rated-hint = Una partida por puntos cambia la puntuación de ambos jugadores. Se juega con las reglas propias de la variante desde su posición inicial: las opciones de reglas se quedan en sus valores por defecto.
lobby-rated-login = <a href="/login">Inicia sesión</a> para jugar partidas por puntos.
lobby-range = Puntuación del rival
lobby-range-any = Cualquiera
lobby-range-100 = La tuya ± 100
lobby-range-200 = La tuya ± 200
lobby-range-300 = La tuya ± 300
lobby-range-500 = La tuya ± 500
lobby-range-only = Solo pueden unirse jugadores con una puntuación de { $lo } a { $hi } en esta variante.
lobby-range-anyone = Cualquiera puede unirse.
lobby-level = Nivel del ordenador
lobby-your-colour = Tu color
lobby-clock-timed = Minutos + incremento
lobby-minutes = Minutos
lobby-minutes-bad = Los minutos deben dar un número entero de segundos, de 0,25 (15 s) a 180.
lobby-increment = Incremento (s)
lobby-days = Días por jugada
lobby-days-1 = 1 día
lobby-days-2 = 2 días
lobby-days-3 = 3 días
lobby-days-5 = 5 días
lobby-days-7 = 7 días
lobby-days-14 = 14 días
lobby-days-hint = Cada jugada puede tardar hasta esto; una jugada devuelve todo el tiempo. La partida te espera entre visitas, en cualquier dispositivo donde inicies sesión.
lobby-days-login = <a href="/login">Inicia sesión</a> para jugar por correspondencia (días por jugada).
lobby-create = Crear partida
lobby-play-stranger = Jugar contra un desconocido
lobby-quick = Emparejamiento rápido
lobby-quick-about = Una partida por puntos de la variante elegida en «Nueva partida» contra un jugador cercano a tu puntuación, en cuanto haya uno. El número indica cuántos esperan.
lobby-quick-login = <a href="/login">Inicia sesión</a> para que te emparejen: las partidas rápidas son por puntos.
lobby-waiting = { $n } esperando
lobby-looking = Buscando un rival a { $range } puntos de tu puntuación ({ $s } s)…
lobby-looking-in = Buscando un rival en { $variant } { $clock } a { $range } puntos de tu puntuación ({ $s } s)…
lobby-your-games-about = Tus partidas en curso: primero aquellas en las que te toca, la fecha límite más cercana primero.
lobby-seeks = Desafíos abiertos
lobby-seeks-about = Partidas que esperan un rival: cualquiera puede ocupar el asiento libre, por orden de llegada. Crea una con <em>Un desconocido</em> arriba; las partidas entre amigos son privadas. Una partida <span class="tag rated">por puntos</span>, y un desafío con rango de puntuación, requieren una cuenta.
lobby-mode = Tipo
lobby-you-play = Juegas con
lobby-action = Acción
lobby-games-about = Las tuyas están marcadas como <span class="tag mine">tuya</span>. Abre una para reanudarla o repasarla jugada a jugada. O abre el <a href="/analysis">tablero de análisis</a> para estudiar cualquier posición o un PGN importado.
lobby-friends = (entre amigos)
lobby-no-games = Aún no hay partidas: crea una.
lobby-own-start = (inicio propio)
lobby-open = Abrir
lobby-login-to-join = Inicia sesión para unirte
lobby-out-of-range = Fuera de rango
lobby-out-of-range-why = Para jugadores con puntuación de { $lo } a { $hi }: la tuya es { $rating }
lobby-join = Unirse
lobby-seek-range = Solo pueden unirse jugadores con puntuación de { $lo } a { $hi }
lobby-bot = Bot
lobby-bot-title = Un bot de la casa: el motor a un nivel medido
lobby-no-seeks = Ahora no hay desafíos abiertos: crea uno con «Un desconocido».

## Páginas que faltan, sin conexión

nogame-title = Chimera — no existe esa partida
nogame-og-title = No existe esa partida en Chimera
nogame-description = Esta partida de Chimera no existe: puede que el enlace esté mal escrito o que la partida ya no esté. Empieza una nueva desde el vestíbulo.
nogame-heading = No existe esa partida
nogame-text = No hay ninguna partida en esta dirección: puede que el enlace esté mal escrito o cortado, o que la partida fuera un desafío abierto que su creador canceló.
notfound-title = Chimera — página no encontrada
notfound-og-title = Página no encontrada en Chimera
notfound-description = No hay ninguna página de Chimera en esta dirección: puede que el enlace esté mal escrito o desactualizado.
notfound-heading = Página no encontrada
notfound-text = No hay ninguna página en esta dirección: puede que el enlace esté mal escrito o desactualizado.
offline-title = Chimera — sin conexión
offline-og-title = Chimera: sin conexión
offline-description = Chimera no llega a su servidor: este dispositivo no tiene conexión. La página vuelve cuando vuelva la red.
offline-og-description = Chimera no llega a su servidor: este dispositivo no tiene conexión.
offline-heading = No tienes conexión
offline-text = Chimera no llega a su servidor: este dispositivo no tiene red, o el servidor no está accesible ahora mismo. Las partidas siguen en el servidor; una partida que juegas se reanuda donde estaba cuando vuelvas.
offline-retry = Reintentar

## La página de la partida

yes = Sí
no = No
decline = Rechazar
flip = Girar tablero
flip-title = Girar el tablero
nav-first = Posición inicial
nav-prev = Jugada anterior
nav-next = Jugada siguiente
nav-last = Posición actual
provisional-title = Puntuación provisional: se asienta tras más partidas por puntos
result-white-wins = Ganan las blancas
result-black-wins = Ganan las negras
result-draw = Tablas
result-by = { $who } por { $reason }
reason-checkmate = jaque mate
reason-stalemate = rey ahogado
reason-threefold = triple repetición
reason-fifty = regla de las cincuenta jugadas
reason-dead-material = material insuficiente
reason-resignation = abandono
reason-timeout = tiempo agotado
reason-agreement = acuerdo
reason-aborted = anulación
game-title = Chimera — partida
game-og-title = Una partida en Chimera
game-description = Una partida de ajedrez o de una de sus variantes en Chimera: mírala en directo, juega tu puesto o repásala jugada a jugada.
game-seat-free = Hay un puesto libre en esta partida.
game-join = Unirse a esta partida
game-send-link = Envía este enlace a tu amigo:
game-accept-draw = Aceptar tablas
game-seek-wait = Esperando a que un desconocido ocupe el otro puesto: esta partida aparece en los desafíos abiertos del vestíbulo hasta que alguien se una, o hasta que canceles o te vayas.
game-cancel-seek = Cancelar el desafío
game-accept-rematch = Aceptar la revancha
game-rematch = Revancha
game-resign = Abandonar
game-really-resign = ¿Seguro que abandonas?
game-offer-draw = Ofrecer tablas
game-takeback = Deshacer jugada
game-analyse = Analizar
game-export-pgn = Exportar PGN
game-not-connected = Sin conexión: reconectando…
game-idle = Se dejó de mirar tras mucho tiempo inactivo: haz clic o pulsa una tecla para volver a mirar.
game-computer-level = Ordenador (nivel { $n })
game-you-mark = {" "}(tú)
game-waiting-mark = {" "}— esperando a un jugador
game-over = Partida terminada.
game-waiting-opponent = Esperando a un rival.
game-waiting-friend = Esperando a que tu amigo se una: envíale el enlace de invitación.
game-thinking = El ordenador está pensando…
game-your-move = { $color ->
    [white] Te toca (blancas).
   *[black] Te toca (negras).
}
game-waiting-for = { $color ->
    [white] Esperando a las blancas.
   *[black] Esperando a las negras.
}
game-watching = { $color ->
    [white] Estás mirando. Juegan las blancas.
   *[black] Estás mirando. Juegan las negras.
}
game-invite-used = Este enlace de invitación ya se ha usado: los dos puestos están ocupados.
game-reviewing = Repasando la jugada { $ply } de { $of }.
game-draw-offered = { $color ->
    [white] Las blancas ofrecen tablas.
   *[black] Las negras ofrecen tablas.
}
game-rating-diff-title = Puntuación { $before } antes de la partida, { $after } después
game-ratings = Puntuaciones: { $w }, { $b }.
game-ratings-updating = Partida por puntos: se están actualizando las puntuaciones…
game-rematch-swapped = Revancha (colores cambiados)
game-offer-rematch = Ofrecer la revancha
game-rematch-offered = Revancha ofrecida: esperando a que tu rival acepte.
game-rematch-offer = { $who } ofrece la revancha con los colores cambiados.
game-rematch-on = La revancha está en marcha:
game-play-it = jugarla
game-watch-it = mirarla
game-draw-hotseat = ¿Acordar tablas? Los dos jugadores están en este dispositivo: la partida termina en tablas.
game-draw-computer = ¿Ofrecer tablas al ordenador?
game-draw-opponent = ¿Ofrecer tablas a tu rival?

## Iniciar sesión y registrarse

username = Nombre de usuario
password = Contraseña
login-title = Chimera — iniciar sesión
login-og-title = Iniciar sesión en Chimera
login-description = Inicia sesión en Chimera o crea una cuenta para jugar partidas por puntos y ajedrez por correspondencia.
login-heading = Iniciar sesión o registrarse
login-new-here = ¿Eres nuevo? <a href="#signup-panel" id="to-signup">Crea una cuenta</a>: no hace falta correo.
login-create-heading = Crear una cuenta
login-signup-about = Una cuenta guarda tus partidas: te siguen a cualquier dispositivo donde inicies sesión. Las partidas que jugaste en este navegador pasan a la cuenta.
login-username-hint = De 2 a 20 letras (A–Z), cifras, _ o -: empieza por una letra, termina en letra o cifra y no tiene dos _ o - seguidos.
login-password-hint = De 8 a 128 caracteres; no una contraseña común, y sin tu nombre de usuario. No hay recuperación por correo: guárdala bien.
login-password-again = Repite la contraseña
login-password-again-hint = La misma contraseña, para asegurarse.
login-create = Crear cuenta
login-already = Has iniciado sesión como { $name }.
login-go-account = Ir a tu cuenta
login-go-on = Continuar
login-or-else = , o inicia sesión abajo como otra persona.
login-too-many = Demasiados intentos fallidos: inténtalo de nuevo en { $s } s.
login-try-again-in = Inténtalo de nuevo en { $s } s.
login-enter-username = Escribe tu nombre de usuario.
login-enter-password = Escribe tu contraseña.
login-passwords-differ = Las dos contraseñas no coinciden.
login-welcome = Bienvenido, { $name }: tu cuenta está creada.
login-claimed = { $n ->
    [one] { $n } partida jugada en este navegador ahora es de la cuenta.
   *[other] { $n } partidas jugadas en este navegador ahora son de la cuenta.
}
form-choose-username = Elige un nombre de usuario.
form-username-length = Un nombre de usuario tiene de 2 a 20 caracteres.
form-username-chars = Un nombre de usuario solo puede tener letras A–Z, cifras, _ y -.
form-username-start = Un nombre de usuario empieza por una letra.
form-username-end = Un nombre de usuario termina en una letra o una cifra.
form-username-double = Un nombre de usuario no tiene dos _ o - seguidos.
form-password-short = Una contraseña tiene al menos 8 caracteres.
form-password-long = Una contraseña tiene como máximo 128 caracteres.
form-password-username = Una contraseña no puede contener el nombre de usuario.

## Reglas y jugadores

rating = Puntuación
novariant-title = Chimera — no existe esa variante
novariant-heading = No existe esa variante
rules-title = Chimera — reglas
rules-og-title = Las reglas de las variantes en Chimera
rules-description = Las reglas del ajedrez y de sus variantes en Chimera (Genie, Genesis, Clown, Magic Ring), con diagramas y sus opciones de reglas.
rules-heading = Las reglas de las variantes
rules-diagrams = Diagramas
rules-play = Jugar a { $variant }
rules-no-variant = No hay ninguna variante «{ $variant }»
rules-chimera-plays = Chimera ofrece:
rules-title-of = Chimera — reglas de { $variant }
rules-complete = Las reglas completas de { $variant }
rules-complete-about = : cada regla, cómo se anotan las jugadas y las lecturas elegidas donde el texto del inventor no es claro (en inglés).
rules-diagram-unavailable = (diagrama no disponible: { $error })
players-title = Chimera — jugadores
players-og-title = Jugadores en Chimera
players-description = Las clasificaciones de Chimera: los jugadores mejor puntuados de ajedrez y de cada variante.
players-who-days = { $n ->
    [one] Aparecen los jugadores cuya puntuación es firme (no provisional, marcada con «?» en otros sitios) y que jugaron una partida por puntos de la variante el último día. Una puntuación es provisional hasta que el jugador ha jugado suficientes partidas por puntos para que sea fiable.
   *[other] Aparecen los jugadores cuya puntuación es firme (no provisional, marcada con «?» en otros sitios) y que jugaron una partida por puntos de la variante en los últimos { $n } días. Una puntuación es provisional hasta que el jugador ha jugado suficientes partidas por puntos para que sea fiable.
}
players-who-months = Aparecen los jugadores cuya puntuación es firme (no provisional, marcada con «?» en otros sitios) y que jugaron una partida por puntos de la variante en los últimos meses. Una puntuación es provisional hasta que el jugador ha jugado suficientes partidas por puntos para que sea fiable.
players-empty = Todavía nadie: los jugadores aparecen aquí cuando su puntuación es firme.
players-play-rated = Jugar una partida por puntos
players-all = Todos
players-all-label = Todos los jugadores de { $variant }
players-all-variants = Todas las variantes
players-no-variant = Chimera no tiene ninguna variante «{ $variant }».
players-see-all = Ver la clasificación de cada variante
players-title-of = Chimera — jugadores de { $variant }
players-top = { $variant }: los mejores jugadores
players-error = No se pudieron leer las clasificaciones: { $error }

## El tablero de análisis

play-move = Jugar { $move }
analysis-title = Chimera — tablero de análisis
analysis-og-title = Tablero de análisis de Chimera
analysis-description = Estudia cualquier posición del ajedrez o de sus variantes con un motor: coloca un FEN, importa un PGN, explora variantes y expórtalas.
analysis-evalbar = Evaluación del motor (parte de las blancas)
analysis-set-position = Colocar posición
analysis-start-position = Posición inicial
analysis-engine = Motor
analysis-auto = tras cada jugada
analysis-lines = Líneas
analysis-key-start = Inicio (Inicio)
analysis-key-back = Atrás (←)
analysis-key-forward = Adelante (→)
analysis-key-end = Final de la línea (Fin)
analysis-promote = Ascender línea
analysis-promote-title = Convertir esta variante en la línea de la que sale
analysis-delete = Borrar desde aquí
analysis-delete-title = Borrar esta jugada y lo que sigue
analysis-keys-help = Teclas: ← → atrás y adelante, Inicio/Fin principio y final de la línea, ↑ ↓ las variantes, f gira el tablero. Una jugada hecha desde una posición anterior abre una variante; no se pierde nada.
analysis-pgn-placeholder = Pega aquí un PGN y pulsa «Importar PGN»
analysis-import = Importar PGN
analysis-no-position = No hay posición: { $error }. Corrige el FEN y pulsa «Colocar posición», o «Posición inicial».
analysis-stop = Detener
analysis-thinking = Pensando…
analysis-depth = profundidad { $n }
explorer = Explorador de aperturas
explorer-people = Personas (por puntos)
explorer-engines = Motores y laboratorio
explorer-none = Ninguna partida guardada ha llegado a esta posición.
explorer-move = Jugada
explorer-wdb = Blancas / tablas / Negras
explorer-white-wins = { $n } victorias de las blancas
explorer-draws = { $n } tablas
explorer-black-wins = { $n } victorias de las negras
explorer-bar = { $w } % victorias de las blancas, { $d } % tablas, { $b } % victorias de las negras
tree-eval-title = Evaluación del PGN
tree-clock-title = Reloj del PGN

## El análisis por ordenador, los sonidos, el tablero y sus elecciones

review = Análisis por ordenador
review-what = El motor examina cada posición de la partida: un gráfico de evaluación, la precisión y los errores de cada bando, y la jugada mejor donde se pasó por alto.
review-running = El motor está analizando la partida…
review-queued = El análisis está en cola: empieza cuando haya un motor libre…
review-failed = Sin análisis: { $error }
review-asking = Pidiendo un análisis…
review-eval-graph = Gráfico de evaluación: pulsa un punto para ir a su jugada
review-time-graph = Tiempo por jugada: pulsa una barra para ir a su jugada
review-accuracy = Precisión
review-inaccuracies = Imprecisiones
review-mistakes = Errores
review-blunders = Errores graves
review-inaccuracy = Imprecisión
review-mistake = Error
review-blunder = Error grave
review-no-clock = Esta partida no tiene reloj: no hay tiempos por jugada.
review-at-start = al inicio. Pulsa un punto de un gráfico para ir a su jugada.
review-better-was = Era mejor
review-engine-chose = El motor eligió { $move }
review-move-accuracy = precisión { $n } %
review-count-inaccuracy = { $side }: { $n ->
    [one] { $n } imprecisión
   *[other] { $n } imprecisiones
}
review-count-mistake = { $side }: { $n ->
    [one] { $n } error
   *[other] { $n } errores
}
review-count-blunder = { $side }: { $n ->
    [one] { $n } error grave
   *[other] { $n } errores graves
}
review-count-go = { $count }, ir al siguiente
review-slider-move = Jugada { $move } { $san }, { $eval }
review-slider-start = Inicio, { $eval }
sound-on = Sonido: activado
sound-off = Sonido: desactivado
sound-on-title = Los sonidos están activados: haz clic para silenciarlos
sound-off-title = Los sonidos están desactivados: haz clic para activarlos
board-label = El tablero
board-reserve = Reserva
board-place-piece = Coloca la pieza en una casilla resaltada.
board-drop-title = : haz clic o arrástrala a una casilla resaltada
chooser-title = Elegir
premove-waits = La prejugada { $from }–{ $to } espera tu turno (se juega entonces si es legal). Esc o un clic en una casilla vacía la cancela.
premove-note = Prejugada: se juega cuando te toque, si entonces es legal. Haz clic en otro sitio o pulsa Esc para cancelarla.
piece-pawn = Peón
piece-knight = Caballo
piece-bishop = Alfil
piece-rook = Torre
piece-queen = Dama
piece-king = Rey
piece-genie = Genie
piece-clown = Clown
ring-title = { $owner ->
    [white] Anillo de las blancas
   *[black] Anillo de las negras
}
ring-captured = { $holder ->
    [white] , capturado por las blancas
   *[black] , capturado por las negras
}
ring-level = , nivel { $level }
ring-grants = , otorga { $power }
ring-grants-idle = , otorga { $power } (no está en un Rey)
tainted-title = Peón contaminado: sin promoción ni doble paso
note-declare = Este Caballo puede declararse Clown con esta jugada: elige una casilla y luego decide.
note-ringpass = Círculos dorados: pasar el anillo a ese vecino.
note-promotion = Promoción: elegirás la pieza.
action-flip = Convertir este peón en un Genie ({ $square })
choice-declare = Declarar un Clown
choice-declare-title = Declarar Clown a este Caballo
choice-stay = Seguir siendo Caballo

## La página de la cuenta

account-title = Chimera — tu cuenta
account-og-title = Tu cuenta de Chimera
account-description = Tu cuenta de Chimera: tus ajustes, tu contraseña, tus tokens de API y tus notificaciones.
account-member-since = Miembro desde
account-logout = Cerrar sesión
account-logout-all = Cerrar sesión en todas partes
account-logout-all-note = «Cerrar sesión en todas partes» termina cada sesión de esta cuenta en cada dispositivo, incluido este.
account-change-password = Cambiar la contraseña
account-current-password = Contraseña actual
account-new-password = Contraseña nueva
account-new-password-hint = De 8 a 128 caracteres; no una contraseña común, y sin tu nombre de usuario.
account-new-password-again = Repite la contraseña nueva
account-new-password-again-hint = La misma contraseña nueva, para asegurarse.
account-password-note = Tus otras sesiones terminan cuando cambia la contraseña; esta sigue.
account-tokens = Tokens de API
account-tokens-about = Un token permite que un programa juegue por esta cuenta mediante la <a href="/docs/api.md">API de Bot y Board</a> (como los tokens de lichess): un motor como cuenta BOT, o tu propio programa o terminal. Mantenlo en secreto; revócalo cuando ya no se use.
account-token-what = Para qué es
account-token-what-hint = De 1 a 60 caracteres, para distinguir tus tokens.
account-token-scopes = Qué puede hacer
account-scope-board = Jugar partidas desde un programa
account-scope-bot = Jugar como cuenta BOT
account-scope-cread = Leer desafíos
account-scope-cwrite = Lanzar y responder desafíos
account-create-token = Crear token
account-token-new = Tu token nuevo, mostrado solo esta vez: cópialo ahora.
account-copy = Copiar
account-copied = Copiado
account-copy-by-hand = Selecciónalo y cópialo
account-your-tokens = Tus tokens de API
account-token = Token
account-scopes = Permisos
account-created = Creado
account-last-used = Último uso
account-never = nunca
account-revoke = Revocar
account-revoke-label = Revocar { $token }
account-no-tokens = Aún no hay tokens.
account-data = Tus datos
account-data-about = Todo lo que el sitio guarda de tu cuenta, para conservarlo o llevarlo a otra parte.
account-download-data = Descargar mis datos (JSON)
account-download-games = Descargar mis partidas (PGN)
account-delete = Borrar la cuenta
account-delete-about = La cuenta y sus sesiones desaparecen para siempre. Sus partidas se quedan en el sitio, sin tu nombre. El nombre de usuario no podrá volver a usarse.
account-delete-confirm = Lo entiendo: mi cuenta se borra para siempre.
account-delete-submit = Borrar mi cuenta
account-read-error = No se pudo leer tu cuenta: { $error }
account-tokens-error = No se pudieron leer tus tokens: { $error }
account-token-say = Di para qué es el token.
account-token-tick = Marca al menos una cosa que el token pueda hacer.
account-logged-out = Sesión cerrada.
account-logged-out-all = Sesión cerrada en todas partes.
account-logged-out-all-n = { $n ->
    [one] Sesión cerrada en todas partes ({ $n } sesión terminada).
   *[other] Sesión cerrada en todas partes ({ $n } sesiones terminadas).
}
account-logged-out-already = Ya habías cerrado la sesión.
account-enter-current = Escribe tu contraseña actual.
account-new-differ = Las dos contraseñas nuevas no coinciden.
account-password-changed = Contraseña cambiada. Tus otras sesiones se han cerrado; esta sigue.
account-delete-enter = Escribe tu contraseña para borrar la cuenta.
account-delete-tick = Marca la casilla para confirmar que se borre la cuenta.
account-deleted = Tu cuenta está borrada. Sus partidas se quedan, sin tu nombre.

## El perfil de un jugador

profile-title = Chimera — jugador
profile-og-title = El perfil de un jugador en Chimera
profile-description = Las puntuaciones de un jugador de Chimera en cada variante, su historial de puntuación, sus resultados y su archivo de partidas.
profile-you = Eres tú: <a href="/account">tu cuenta</a>.
profile-challenge = Desafiar a
profile-time = Ritmo
profile-no-clock = Sin reloj
profile-days-1 = 1 día por jugada
profile-days-3 = 3 días por jugada
profile-days-7 = 7 días por jugada
profile-send-challenge = Enviar el desafío
profile-in-progress = Tus partidas en curso
profile-ratings = Puntuaciones
profile-no-rated = Aún no hay partidas por puntos.
profile-latest = Últimas partidas
profile-found = Partidas encontradas
profile-search-label = Buscar en las partidas de este jugador
profile-result = Resultado
profile-win = Victoria
profile-loss = Derrota
profile-from = Desde
profile-to = Hasta
profile-search = Buscar
profile-download = Descargar estas partidas (PGN)
profile-date = Fecha
profile-pages = Páginas de partidas
profile-newer = Más recientes
profile-older = Más antiguas
profile-page-1 = Página 1
profile-page = Página { $n }
profile-page-games = partidas { $from }–{ $to }
profile-page-none = ninguna partida
profile-none-page = No hay partidas en esta página.
profile-none-match = Ninguna partida coincide con esta búsqueda.
profile-none-yet = Aún no hay partidas.
profile-search-failed = No se muestran partidas: no se pudo hacer la búsqueda.
profile-search-wrong = La búsqueda no es válida: { $error }
profile-games-error = No se pudieron leer las partidas: { $error }
profile-date-partial = La fecha «{ $field }» está incompleta.
profile-date-bad = La fecha «{ $field }» no es una fecha.
profile-date-order = La fecha «Desde» es posterior a la fecha «Hasta».
profile-outcome-draw = tablas
profile-outcome-won = ganada
profile-outcome-lost = perdida
profile-no-history = Aún no hay historial de puntuación.
profile-graph-title = { $n ->
    [one] { $variant }: historial de puntuación en { $n } partida por puntos, de { $from } a { $to }
   *[other] { $variant }: historial de puntuación en { $n } partidas por puntos, de { $from } a { $to }
}
profile-provisional = provisional
profile-interval = intervalo del 95 % { $lo }–{ $hi }, de { $n } partidas de calibración
profile-wins = Victorias
profile-draws = Tablas
profile-losses = Derrotas
profile-since = Juega en Chimera desde el { $date }.
profile-bot = Un bot de la casa: el motor en el nivel { $n }. Sus puntuaciones son la
profile-bot-link = fuerza medida del nivel
profile-bot-after = ; una partida por puntos contra él solo cambia tu puntuación.
profile-error = No se pudo leer la página de este jugador: { $error }
profile-declined-busy = { $name } ha rechazado: está ocupado, inténtalo en un minuto.
profile-declined-clock = { $name } ha rechazado: los bots solo juegan con reloj.
profile-declined = { $name } ha rechazado: { $reason }.
profile-challenge-sent = Desafío enviado: esperando la respuesta de { $name }.
profile-cancel-it = Cancelarlo
profile-challenge-cancelled = Desafío cancelado.
noplayer-title = Chimera — no existe ese jugador
noplayer-heading = No existe ese jugador
noplayer-text = No hay ningún jugador llamado «{ $name }»: puede que el nombre esté mal escrito o que la cuenta se haya borrado.
noplayer-none = No se indicó ningún jugador.
noplayer-leaderboards = Ver las clasificaciones

## Notificaciones

notes = Notificaciones
notes-unread = Notificaciones: { $n } sin leer
notes-nothing = Nada todavía.
notes-accept = Aceptar
notes-declined-done = Rechazado
notes-no-clock = sin reloj
notes-challenge-rated = { $name } te desafía: { $variant }, { $clock }, por puntos
notes-challenge-casual = { $name } te desafía: { $variant }, { $clock }, amistosa
notes-accepted = { $name } aceptó tu desafío ({ $variant })
notes-declined = { $name } rechazó tu desafío: { $reason }
notes-not-now = ahora no
notes-canceled = { $name } canceló un desafío
notes-seek-taken = { $name } aceptó tu desafío abierto ({ $variant })
notes-someone = Alguien
notes-move = { $name } jugó { $move } ({ $variant }): te toca
notes-your-opponent = Tu rival
notes-over = Tu partida de { $variant } ha terminado: { $result }
notes-over-against = Tu partida de { $variant } contra { $name } ha terminado: { $result }
push-start = Avisarme en este dispositivo
push-stop = Dejar de avisar a este dispositivo
push-cannot = Este navegador no puede recibir notificaciones push.
push-on = Activadas: los desafíos y tus jugadas por correspondencia llegan a este dispositivo aunque no haya ninguna página abierta.
push-off = Desactivadas en este dispositivo.
push-timeout = { $what } no respondió en { $s } s
push-the-worker = el service worker
push-the-service = el servicio push del navegador
push-read-error = No se pudo leer el estado de las notificaciones push: { $error }
push-blocked = Las notificaciones están bloqueadas para este sitio: permítelas en los ajustes del sitio del navegador y vuelve a intentarlo.
push-denied = El navegador no obtuvo permiso para mostrar notificaciones.
push-none = Este servidor no envía notificaciones push.
push-subscribe-error = El navegador no pudo suscribirse a su servicio push ({ $error }). Algunos navegadores no tienen, o lo desactivan en ventanas privadas.
push-refused = El servidor rechazó este dispositivo: { $error }
push-error = Notificaciones push: { $error }

## Las variantes y los niveles

variant-chess = Ajedrez
summary-chess = Ajedrez ortodoxo con las reglas de la FIDE.
summary-genie = Una vez por partida, convierte uno de tus peones en un Genie que salta una o dos casillas en cualquier dirección.
summary-genie-ownhalf = Genie Of The Lamp, pero un peón solo puede convertirse en tu propia mitad del tablero.
summary-clown = Declara Clown a un Caballo, que se mueve como la pieza de su columna, y recupera una pieza perdida.
summary-genesis = Un tablero vacío: coloca tus piezas desde la reserva, el Rey primero, y lucha mientras construyes.
summary-magicring = Los anillos de los Reyes ganan poder cada vez que cambian de manos. Pásalos, captúralos.
level-words-1 = Principiante: ve una jugada por delante y comete errores graves a menudo
level-words-2 = Aficionado: ve capturas sencillas, se le escapan la mayoría de las amenazas
level-words-3 = Novato de club: casi nunca deja piezas colgadas
level-words-4 = Jugador de club: táctica corta, desarrollo constante
level-words-5 = Jugador de club fuerte: calcula unas cuantas jugadas
level-words-6 = Experto: castiga la mayoría de los errores
level-words-7 = Maestro: fuerza completa, medio segundo por jugada
level-words-8 = Fuerza completa: lo mejor del motor, un segundo por jugada
option-ring-powers = Poderes de los anillos
option-ring-powers-help = El poder de cada nivel de anillo, en orden: de 1 a 8 letras entre Q R B N K (por defecto QNRB).

## The screen-reader mode (blind.js). Typed commands and move notation stay as they are.
blind-title = Modo lector de pantalla
blind-move-label = Tu jugada, o una orden
blind-play = Jugar
blind-short-help = Escribe una jugada como la escribe la lista de jugadas (Nf3, exd5, O-O, Gd2, K@e1, !Nb4, Nc3(!C), e1~d2) o en UCI (g1f3) y pulsa Intro. Órdenes: b tablero, r filas, s estado de la variante, c relojes, l última jugada, m jugadas legales (m e2: desde e2), t a quién le toca, h ayuda.
blind-read-aloud = Leer
blind-announcements = Avisos
blind-help-title = Todas las órdenes
blind-confirm-label = Preguntar antes de enviar una jugada escrita
blind-button-board = Tablero
blind-button-ranks = Filas
blind-button-state = Estado de la variante
blind-button-clocks = Relojes
blind-button-last = Última jugada
blind-button-legal = Jugadas legales
blind-button-turn = A quién le toca
blind-help-b = el tablero como listas de piezas: las de las Blancas, luego las de las Negras
blind-help-r = el tablero fila por fila, desde la fila 8 hacia abajo (las Blancas abajo)
blind-help-s = el estado de la variante: transformaciones en Genie, reservas, manos y reentradas, anillos, sus niveles y poderes
blind-help-c = ambos relojes
blind-help-l = la última jugada
blind-help-m = todas las jugadas legales; m e2 las de la pieza en e2; m @ (o m N) las colocaciones y reentradas
blind-help-t = a quién le toca, y el estado de la partida
blind-help-h = esta ayuda
blind-help-up = la flecha hacia arriba en el campo recupera el último texto escrito
blind-help-tab = los botones de la partida siguen al tablero: abandonar, ofrecer tablas, deshacer jugada, girar, analizar, revancha
blind-white = Blancas
blind-black = Negras
blind-pawn = peón
blind-knight = caballo
blind-bishop = alfil
blind-rook = torre
blind-queen = dama
blind-king = rey
blind-genie = Genie
blind-clown = Clown
blind-pawns = peones
blind-knights = caballos
blind-bishops = alfiles
blind-rooks = torres
blind-queens = damas
blind-kings = reyes
blind-genies = Genies
blind-clowns = Clowns
blind-castle-short = enroque corto
blind-castle-long = enroque largo
blind-takes = captura en
blind-from = desde
blind-to = a
blind-promotes = corona en { $role }
blind-check = jaque
blind-mate = jaque mate
blind-placed = colocación de { $role } en { $square }
blind-reenters = { $role } vuelve a entrar en { $square }
blind-flips = el peón de { $square } se convierte en Genie
blind-declared = declarado Clown
blind-ring-pass = anillo pasado de { $from } a { $to }
blind-ring-of = anillo de las { $side }
blind-played = Las { $side } jugaron { $words } ({ $san }).
blind-you-played = Jugaste { $words } ({ $san }).
blind-sent = Enviando { $words }…
blind-confirm = ¿Jugar { $words } ({ $san })? Pulsa Intro para confirmar, Escape para cancelar.
blind-cancelled = Jugada cancelada.
blind-not-your-turn = No es tu turno.
blind-not-playing = No juegas en esta partida: puedes leerla, no mover.
blind-not-active = La partida ha terminado: no hay más jugadas.
blind-reviewing = No estás en la posición actual: pulsa Fin primero (o el botón de la última jugada).
blind-illegal = Jugada ilegal: { $move }. { $why }.
blind-changed = La posición ha cambiado entretanto: escribe tu jugada de nuevo.
blind-failed = No se pudo comprobar la jugada: { $error }
blind-empty = Escribe una jugada o una orden (h para la ayuda).
blind-board = { $side }: { $list }.
blind-board-empty = { $side }: ninguna pieza en el tablero.
blind-rank = Fila { $n }: { $list }.
blind-rank-empty = Fila { $n }: vacía.
# A piece in a list: its square, its side, its kind (“e1 White king”).
blind-square-piece = { $square } { $role } ({ $side })
# A Genie standing on the board, in the variant’s state (“White genie d2”).
blind-genie-at = { $role } de las { $side } en { $square }
blind-reserve-name = Reserva
blind-reserve = { $name }, { $side }: { $list }.
blind-reserve-empty = { $name }, { $side }: vacía.
blind-no-state = Esta partida no tiene estado de variante más allá del tablero.
blind-clock = { $side } { $time }
blind-clock-running = { $side } { $time }, en marcha
blind-no-clock = Esta partida no tiene reloj.
blind-clock-low = Tu reloj: quedan { $time }.
blind-no-move-yet = Todavía no se ha jugado ninguna jugada.
blind-last = Jugada { $n }, { $side }: { $words } ({ $san }).
blind-legal = { $n ->
    [one] { $n } jugada legal: { $list }.
   *[other] { $n } jugadas legales: { $list }.
}
blind-no-legal = No hay jugadas legales aquí.
blind-none-from = Ninguna jugada legal desde { $square }.
# Placements counted per piece; “m N” lists them ($letter: the piece’s letter).
blind-placements = { $n ->
    [one] { $role } colocable en { $n } casilla (m { $letter } la muestra)
   *[other] { $role } colocable en cualquiera de { $n } casillas (m { $letter } las muestra)
}
blind-your-move = Te toca ({ $side }).
blind-their-move = Juegan las { $side }.
blind-thinking = El ordenador está pensando.
blind-waiting-seat = Esperando a que un rival ocupe el otro puesto.
blind-you-play = Juegas con las { $side }.
blind-watching = Estás viendo esta partida.
blind-joined = Tu rival se ha unido: la partida empieza.
blind-over = Partida terminada: { $who } por { $reason } ({ $result }).
blind-white-wins = ganan las Blancas
blind-black-wins = ganan las Negras
blind-draw = tablas
blind-draw-offer = Las { $side } ofrecen tablas: los botones Aceptar tablas y Rechazar siguen en el panel de la partida.
blind-draw-gone = La oferta de tablas ya no está sobre la mesa.
blind-rematch-offer = Las { $side } ofrecen la revancha.
blind-takeback = Jugada deshecha: la partida vuelve a la jugada { $n }.
blind-seconds = { $n ->
    [one] { $n } segundo
   *[other] { $n } segundos
}
blind-minutes = { $n ->
    [one] { $n } minuto
   *[other] { $n } minutos
}

## The lessons (learn.html, lesson.html, learn-index.js, learn.js). The lessons’ own texts stay in English.
learn-title = Chimera — aprende las reglas
learn-description = Lecciones interactivas breves para cada regla especial del ajedrez, Genie Of The Lamp, Genesis, Clown y Magic Ring Chess, en el tablero real.
learn-og-title = Aprende las reglas en Chimera
learn-heading = Aprende las reglas
learn-lead = Cada regla especial de cada juego, una tarea breve cada vez, en el tablero real. Tu progreso se guarda en este navegador, y en tu cuenta cuando has iniciado sesión.
learn-steps-done = { $all ->
    [one] { $done } de { $all } paso hecho
   *[other] { $done } de { $all } pasos hechos
}
learn-start = Empezar
learn-go-on = Continuar
learn-again = Jugar de nuevo
learn-failed = No se pudieron cargar las lecciones: { $error }
learn-lesson-page-title = Chimera — lecciones
learn-lesson-description = Aprende paso a paso las reglas especiales del ajedrez y sus variantes, en el tablero real: cada tarea juzgada por las reglas, con una pista y una explicación.
learn-lesson-og-title = Lecciones de Chimera
learn-lessons = Lecciones
learn-all-lessons = Todas las lecciones
learn-hint = Pista
learn-retry = Empezar el paso de nuevo
learn-next-step = Siguiente paso
learn-next-lesson = Siguiente lección
learn-type-move = O escribe una jugada
learn-play = Jugar
learn-steps = Pasos
learn-variant-title = Aprende { $name }
learn-step = Paso { $n } de { $all }
learn-to-play = { $side ->
    [w] Juegan las blancas.
   *[b] Juegan las negras.
}
learn-correct = ¡Correcto!
learn-wrong = No exactamente.
learn-reply = La respuesta: { $san }.
learn-lesson-done = ¡Lección terminada!
learn-all-done = Has terminado todas las lecciones de este juego.
# Before the lesson’s hint (in English).
learn-hint-is = Pista:
# A step in the list of steps, for screen readers ($task: the step’s task, in English).
learn-step-label = Paso { $n }: { $task }
learn-step-label-done = Paso { $n }: { $task } (hecho)

## Puzzles (puzzles.html, puzzle.html, puzzles-index.js, puzzles.js)
puzzles-title = Chimera — problemas
puzzles-description = Problemas de ajedrez y sus variantes: encuentra la única jugada ganadora, con una puntuación de problemas para cada juego.
puzzles-og-title = Problemas en Chimera
puzzles-heading = Problemas
puzzles-lead = Cada problema tiene una sola jugada ganadora: encuéntrala. Tras tu jugada verás la línea del motor. Cada intento es una partida puntuada entre tú y el problema.
puzzles-count = { $n ->
    [one] un problema
   *[other] { $n } problemas
}
puzzles-none-yet = Esta colección aún no tiene problemas.
puzzles-daily = Problema del día
puzzles-solve = Resolver
puzzles-your-rating = Tu puntuación de problemas: { $rating }
puzzles-no-rating = Aún no tienes puntuación de problemas: resuelve uno.
puzzles-log-in = Inicia sesión para tener una puntuación de problemas.
puzzles-failed = No se pudieron cargar los problemas: { $error }
puzzles-themes = Temas
puzzles-set-name = { $name }
puzzles-set-name-options = { $name }, { $options }
puzzles-ring-powers = poderes del anillo { $powers }
puzzle-page-title = Chimera — un problema
puzzle-description = Encuentra la única jugada ganadora en el tablero real; tu puntuación de problemas cambia con cada primer intento.
puzzle-og-title = Un problema de Chimera
puzzle-heading = Problema
puzzle-all-sets = Todas las colecciones de problemas
puzzle-view-solution = Ver la solución
puzzle-retry = Intentar de nuevo
puzzle-next = Siguiente problema
puzzle-type-move = O escribe una jugada
puzzle-play = Jugar
puzzle-set-title = Problemas: { $name }
puzzle-daily-title = Problema del día: { $name }
puzzle-task = { $side ->
    [w] Juegan las blancas: encuentra la jugada ganadora.
   *[b] Juegan las negras: encuentra la jugada ganadora.
}
puzzle-rating = Puntuación del problema { $rating }, { $plays ->
    [0] aún sin jugar
    [one] jugado una vez
   *[other] jugado { $plays } veces
}
puzzle-themes = Temas: { $themes }
puzzle-replay = Ya has jugado este problema: este intento no puntúa.
puzzle-waiting = El motor responde a tu jugada…
puzzle-correct = ¡Correcto! { $move } gana.
puzzle-wrong = Incorrecto: { $move } no gana.
puzzle-refutation = La respuesta: { $line }
puzzle-gave-up = Has pedido la solución: un intento perdido.
puzzle-solution = La jugada ganadora: { $move }. La línea: { $line }
puzzle-rating-change = Tu puntuación de problemas: { $rating } ({ $diff })
puzzle-not-rated = Sin puntuar: ya habías jugado este problema.
puzzle-theme-mate = Mate
puzzle-theme-mate-help = La jugada ganadora fuerza el mate.
puzzle-theme-matein1 = Mate en 1
puzzle-theme-matein1-help = Mate en una jugada.
puzzle-theme-matein2 = Mate en 2
puzzle-theme-matein2-help = Mate en dos jugadas.
puzzle-theme-matein3 = Mate en 3
puzzle-theme-matein3-help = Mate en tres jugadas.
puzzle-theme-matein4 = Mate en 4
puzzle-theme-matein4-help = Mate en cuatro jugadas.
puzzle-theme-matein5 = Mate en 5
puzzle-theme-matein5-help = Mate en cinco jugadas.
puzzle-theme-material = Material
puzzle-theme-material-help = La línea gana al menos el valor de dos peones en material.
puzzle-theme-crushing = Aplastante
puzzle-theme-crushing-help = Sin mate, pero con una ventaja de seis peones o más.
puzzle-theme-advantage = Ventaja
puzzle-theme-advantage-help = Sin mate, una ventaja de tres a seis peones.
puzzle-theme-check = Jaque
puzzle-theme-check-help = La jugada ganadora da jaque.
puzzle-theme-capture = Captura
puzzle-theme-capture-help = La jugada ganadora captura.
puzzle-theme-quiet = Jugada tranquila
puzzle-theme-quiet-help = La jugada ganadora no captura, no da jaque ni corona.
puzzle-theme-promotion = Coronación
puzzle-theme-promotion-help = La jugada ganadora corona un peón.
puzzle-theme-flip = Conversión en Genio
puzzle-theme-flip-help = Genie: la jugada ganadora convierte un peón en Genio.
puzzle-theme-placement = Colocación
puzzle-theme-placement-help = Genesis: la jugada ganadora coloca una pieza de la reserva.
puzzle-theme-declaration = Declaración
puzzle-theme-declaration-help = Clown: la jugada ganadora declara Payaso a un Caballo.
puzzle-theme-reentry = Reentrada
puzzle-theme-reentry-help = Clown: la jugada ganadora devuelve al tablero una pieza capturada.
puzzle-theme-ringpass = Pase del anillo
puzzle-theme-ringpass-help = Magic Ring: la jugada ganadora pasa un anillo.
puzzle-theme-ringpower = Poder del anillo
puzzle-theme-ringpower-help = Magic Ring: la pieza solo puede hacer la jugada ganadora gracias al poder de su anillo.
puzzle-theme-geniemove = Genie
puzzle-theme-geniemove-help = Genie: la jugada ganadora es del Genie.
puzzle-theme-clownmove = Clown
puzzle-theme-clownmove-help = Clown: la jugada ganadora es del Clown.
