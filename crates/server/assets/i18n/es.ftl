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
hdr-players = Jugadores
hdr-lab = Laboratorio
hdr-your-account = Tu cuenta
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
