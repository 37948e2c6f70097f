import { Link } from 'react-router';
import { useTitle } from '../components/messages.js';

export function NotFoundRoute() {
  useTitle('Página no encontrada');
  return (
    <section aria-labelledby="bo-not-found">
      <h1 id="bo-not-found">Página no encontrada</h1>
      <p>
        <Link to="/backoffice">Ir a las solicitudes</Link>
      </p>
    </section>
  );
}
