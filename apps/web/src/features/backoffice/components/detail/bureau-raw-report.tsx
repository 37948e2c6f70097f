import { bureauQueryRawRoute } from '@provee/domain';
import { backofficeRequest } from '../../api.js';
import { useResource } from '../../lib/use-resource.js';
import { DataTable } from '../data-table.js';
import { ErrorMessage, Loading } from '../messages.js';
import { Facts } from './section.js';

// The bureau's answer as received (Círculo's `Respuesta`), section by section. Loaded on demand, in
// a chunk of its own with its call (not in api.ts, which the back office's first load carries): only
// analysts open it, and the API records each reading.

type Field = string | number | null | undefined;
interface Credito {
  nombreOtorgante?: Field;
  tipoCredito?: Field;
  fechaAperturaCuenta?: Field;
  fechaCierreCuenta?: Field;
  saldoActual?: Field;
  saldoVencido?: Field;
  peorAtraso?: Field;
  clavePrevencion?: Field;
}
interface Consulta {
  fechaConsulta?: Field;
  nombreOtorgante?: Field;
}
interface Score {
  nombreScore?: Field;
  valor?: Field;
  razones?: string[] | null;
}
interface Mensaje {
  leyenda?: Field;
}

const listOf = <T,>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
const shown = (value: Field) => (value === null || value === undefined || String(value).trim() === '' ? '—' : value);

export function BureauRawReport({ applicationId, queryId }: { applicationId: string; queryId: string }) {
  const raw = useResource(`${applicationId}/${queryId}`, () =>
    backofficeRequest(bureauQueryRawRoute, { params: { applicationId, queryId } }).then((answer) => answer.data),
  );
  if (raw.error) return <ErrorMessage error={raw.error} />;
  if (!raw.data) return <Loading what="Cargando reporte…" />;
  const creditos = listOf<Credito>(raw.data.creditos);
  const consultas = listOf<Consulta>(raw.data.consultas);
  const scores = listOf<Score>(raw.data.scores);
  const mensajes = listOf<Mensaje>(raw.data.mensajes);
  return (
    <div className="bo-subsection">
      <h4>Créditos</h4>
      <DataTable
        caption="Créditos del reporte"
        columns={[
          'Otorgante',
          'Tipo',
          'Apertura',
          'Cierre',
          'Saldo actual',
          'Saldo vencido',
          'Peor atraso',
          'Clave de prevención',
        ]}
      >
        {creditos.map((credito, index) => (
          <tr key={index}>
            <th scope="row">{shown(credito.nombreOtorgante)}</th>
            <td>{shown(credito.tipoCredito)}</td>
            <td>{shown(credito.fechaAperturaCuenta)}</td>
            <td>{shown(credito.fechaCierreCuenta)}</td>
            <td>{shown(credito.saldoActual)}</td>
            <td>{shown(credito.saldoVencido)}</td>
            <td>{shown(credito.peorAtraso)}</td>
            <td>{shown(credito.clavePrevencion)}</td>
          </tr>
        ))}
      </DataTable>
      <h4>Consultas</h4>
      <DataTable narrow caption="Consultas del reporte" columns={['Fecha', 'Otorgante']}>
        {consultas.map((consulta, index) => (
          <tr key={index}>
            <td>{shown(consulta.fechaConsulta)}</td>
            <td>{shown(consulta.nombreOtorgante)}</td>
          </tr>
        ))}
      </DataTable>
      <h4>Scores</h4>
      <Facts
        items={scores.map((score) => [
          String(shown(score.nombreScore)),
          `${shown(score.valor)}${score.razones?.length ? ` (razones: ${score.razones.join(', ')})` : ''}`,
        ])}
      />
      <h4>Mensajes</h4>
      {mensajes.length === 0 ? (
        <p className="bo-muted">Sin mensajes.</p>
      ) : (
        <ul>
          {mensajes.map((mensaje, index) => (
            <li key={index}>{shown(mensaje.leyenda)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
