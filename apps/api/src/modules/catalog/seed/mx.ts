/**
 * Mexico: the municipalities of the State of Mexico (INEGI state 15) the service covers, with a
 * few zip codes each as a starting sample. The official SEPOMEX file, loaded with
 * `npm run catalog:import -- --format sepomex <file>`, completes and corrects them.
 */
export const MX_STATES: {
  code: string;
  name: string;
  municipalities: { code: string; name: string; allowed: boolean; neighborhoods: [zip: string, name: string][] }[];
}[] = [
  {
    code: '15',
    name: 'México',
    municipalities: [
      {
        code: '033',
        name: 'Ecatepec de Morelos',
        allowed: true,
        neighborhoods: [
          ['55000', 'San Cristóbal Centro'],
          ['55120', 'Ciudad Azteca 1a Sección'],
        ],
      },
      {
        code: '058',
        name: 'Nezahualcóyotl',
        allowed: true,
        neighborhoods: [
          ['57000', 'Nezahualcóyotl Centro'],
          ['57700', 'Evolución'],
        ],
      },
      {
        code: '057',
        name: 'Naucalpan de Juárez',
        allowed: true,
        neighborhoods: [
          ['53000', 'Naucalpan Centro'],
          ['53100', 'Ciudad Satélite'],
        ],
      },
      { code: '104', name: 'Tlalnepantla de Baz', allowed: true, neighborhoods: [['54000', 'Tlalnepantla Centro']] },
      { code: '031', name: 'Chimalhuacán', allowed: true, neighborhoods: [['56330', 'Chimalhuacán Centro']] },
      {
        code: '121',
        name: 'Cuautitlán Izcalli',
        allowed: true,
        neighborhoods: [['54700', 'Centro Urbano Cuautitlán Izcalli']],
      },
      { code: '099', name: 'Texcoco', allowed: true, neighborhoods: [['56100', 'Texcoco de Mora Centro']] },
      { code: '106', name: 'Toluca', allowed: false, neighborhoods: [['50000', 'Toluca Centro']] },
    ],
  },
];
