/**
 * Dominican Republic: the 32 provinces and 158 municipalities with their ONE codes (2020
 * territorial division). Neighbourhoods come from the importer (npm run catalog:import).
 * `allowed`: the municipalities the lender serves at launch (Gran Santo Domingo and Santiago).
 */
export const DO_PROVINCES: { code: string; name: string; municipalities: [code: string, name: string, allowed?: true][] }[] = [
  { code: "01", name: "Distrito Nacional", municipalities: [["01", "Santo Domingo de Guzmán", true]] },
  { code: "02", name: "Azua", municipalities: [["01", "Azua"], ["02", "Las Charcas"], ["03", "Las Yayas de Viajama"], ["04", "Padre Las Casas"], ["05", "Peralta"], ["06", "Sabana Yegua"], ["07", "Pueblo Viejo"], ["08", "Tábara Arriba"], ["09", "Guayabal"], ["10", "Estebanía"]] },
  { code: "03", name: "Baoruco", municipalities: [["01", "Neiba"], ["02", "Galván"], ["03", "Tamayo"], ["04", "Villa Jaragua"], ["05", "Los Ríos"]] },
  { code: "04", name: "Barahona", municipalities: [["01", "Barahona"], ["02", "Cabral"], ["03", "Enriquillo"], ["04", "Paraíso"], ["05", "Vicente Noble"], ["06", "El Peñón"], ["07", "La Ciénaga"], ["08", "Fundación"], ["09", "Las Salinas"], ["10", "Polo"], ["11", "Jaquimeyes"]] },
  { code: "05", name: "Dajabón", municipalities: [["01", "Dajabón"], ["02", "Loma de Cabrera"], ["03", "Partido"], ["04", "Restauración"], ["05", "El Pino"]] },
  { code: "06", name: "Duarte", municipalities: [["01", "San Francisco de Macorís"], ["02", "Arenoso"], ["03", "Castillo"], ["04", "Pimentel"], ["05", "Villa Riva"], ["06", "Las Guáranas"], ["07", "Eugenio María de Hostos"]] },
  { code: "07", name: "Elías Piña", municipalities: [["01", "Comendador"], ["02", "Bánica"], ["03", "El Llano"], ["04", "Hondo Valle"], ["05", "Pedro Santana"], ["06", "Juan Santiago"]] },
  { code: "08", name: "El Seibo", municipalities: [["01", "El Seibo"], ["02", "Miches"]] },
  { code: "09", name: "Espaillat", municipalities: [["01", "Moca"], ["02", "Cayetano Germosén"], ["03", "Gaspar Hernández"], ["04", "Jamao Al Norte"], ["05", "San Víctor "]] },
  { code: "10", name: "Independencia", municipalities: [["01", "Jimaní"], ["02", "Duvergé"], ["03", "La Descubierta"], ["04", "Postrer Río"], ["05", "Cristóbal"], ["06", "Mella"]] },
  { code: "11", name: "La Altagracia", municipalities: [["01", "Higüey"], ["02", "San Rafael del Yuma"]] },
  { code: "12", name: "La Romana", municipalities: [["01", "La Romana"], ["02", "Guaymate"], ["03", "Villa Hermosa"]] },
  { code: "13", name: "La Vega", municipalities: [["01", "La Vega"], ["02", "Constanza"], ["03", "Jarabacoa"], ["04", "Jima Abajo"]] },
  { code: "14", name: "María Trinidad Sánchez", municipalities: [["01", "Nagua"], ["02", "Cabrera"], ["03", "El Factor"], ["04", "Río San Juan"]] },
  { code: "15", name: "Monte Crísti", municipalities: [["01", "Monte Crísti"], ["02", "Castañuelas"], ["03", "Guayubín"], ["04", "Las Matas de Santa Cruz"], ["05", "Pepillo Salcedo"], ["06", "Villa Vásquez"]] },
  { code: "16", name: "Pedernales", municipalities: [["01", "Pedernales"], ["02", "Oviedo"]] },
  { code: "17", name: "Peravia", municipalities: [["01", "Baní"], ["02", "Nizao"], ["03", "Matanzas"]] },
  { code: "18", name: "Puerto Plata", municipalities: [["01", "Puerto Plata"], ["02", "Altamira"], ["03", "Guananico"], ["04", "Imbert"], ["05", "Los Hidalgos"], ["06", "Luperón"], ["07", "Sosúa"], ["08", "Villa Isabela"], ["09", "Villa Montellano"]] },
  { code: "19", name: "Hermanas Mirabal", municipalities: [["01", "Salcedo"], ["02", "Tenares"], ["03", "Villa Tapia"]] },
  { code: "20", name: "Samaná", municipalities: [["01", "Samaná"], ["02", "Sánchez"], ["03", "Las Terrenas"]] },
  { code: "21", name: "San Cristóbal", municipalities: [["01", "San Cristóbal"], ["02", "Sabana Grande de Palenque"], ["03", "Bajos de Haina"], ["04", "Cambita Garabitos"], ["05", "Villa Altagracia"], ["06", "Yaguate"], ["07", "San Gregorio de Nigua"], ["08", "Los Cacaos"]] },
  { code: "22", name: "San Juan", municipalities: [["01", "San Juan"], ["02", "Bohechío"], ["03", "El Cercado"], ["04", "Juan de Herrera"], ["05", "Las Matas de Farfán"], ["06", "Vallejuelo"]] },
  { code: "23", name: "San Pedro de Macorís", municipalities: [["01", "San Pedro de Macorís"], ["02", "Los Llanos"], ["03", "Ramón Santana"], ["04", "Consuelo"], ["05", "Quisqueya"], ["06", "Guayacanes"]] },
  { code: "24", name: "Sanchez Ramírez", municipalities: [["01", "Cotuí"], ["02", "Cevicos"], ["03", "Fantino"], ["04", "La Mata"]] },
  { code: "25", name: "Santiago", municipalities: [["01", "Santiago", true], ["02", "Bisonó"], ["03", "Jánico"], ["04", "Licey al Medio"], ["05", "San José de Las Matas"], ["06", "Tamboril"], ["07", "Villa González"], ["08", "Puñal"], ["09", "Sabana Iglesia "], ["10", "Baitoa"]] },
  { code: "26", name: "Santiago Rodríguez", municipalities: [["01", "San Ignacio de Sabaneta"], ["02", "Villa Los Almácigos"], ["03", "Monción"]] },
  { code: "27", name: "Valverde", municipalities: [["01", "Mao"], ["02", "Esperanza"], ["03", "Laguna Salada"]] },
  { code: "28", name: "Monseñor Nouel", municipalities: [["01", "Bonao"], ["02", "Maimón"], ["03", "Piedra Blanca"]] },
  { code: "29", name: "Monte Plata", municipalities: [["01", "Monte Plata"], ["02", "Bayaguana"], ["03", "Sabana Grande de Boyá"], ["04", "Yamasá"], ["05", "Peralvillo"]] },
  { code: "30", name: "Hato Mayor", municipalities: [["01", "Hato Mayor"], ["02", "Sabana de La Mar"], ["03", "El Valle"]] },
  { code: "31", name: "San José de Ocoa", municipalities: [["01", "San José de Ocoa"], ["02", "Sabana Larga"], ["03", "Rancho Arriba"]] },
  { code: "32", name: "Santo Domingo", municipalities: [["01", "Santo Domingo Este", true], ["02", "Santo Domingo Oeste", true], ["03", "Santo Domingo Norte", true], ["04", "Boca Chica", true], ["05", "San Antonio de Guerra", true], ["06", "Los Alcarrizos", true], ["07", "Pedro Brand", true]] },
];
