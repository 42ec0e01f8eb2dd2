import { ContactLink } from './ContactLink';
import { img } from './links';
import { SitePage } from './SitePage';

/** Spec 01 §1 «Event-analytics page», every metric listed. */
export const EVAN_METRICS = [
  'Тепловая карта посещения помещений',
  'Маршруты посетителей',
  'Метрики стендов',
  'Время пребывания',
  'Посетители в минуту',
  'Самый популярный и самый непопулярный стенд',
  'Самый популярный маршрут',
  'Безопасные зоны вокруг объектов',
];

export function EvanScreen() {
  return (
    <SitePage
      testId="page-evan"
      title="Аналитика мероприятий"
      description="Аналитика выставок и музеев по видео: тепловая карта посещений, маршруты посетителей, метрики стендов, время пребывания и безопасные зоны."
      lead="Выставки и музеи: что на самом деле смотрят посетители, куда идут и где задерживаются."
    >
      <section aria-labelledby="evan-metrics" className="two-columns">
        <div>
          <h2 id="evan-metrics">Метрики</h2>
          <ul className="check-list" data-testid="evan-metrics">
            {EVAN_METRICS.map((metric) => (
              <li key={metric}>{metric}</li>
            ))}
          </ul>
        </div>
        <img src={img('evan-heatmap')} alt="Тепловая карта зала с маршрутами посетителей" width={480} height={270} loading="lazy" />
      </section>
      <section aria-labelledby="evan-cameras">
        <h2 id="evan-cameras">Камеры</h2>
        <div className="card-grid two">
          <figure className="site-figure">
            <img src={img('cameras-independent')} alt="Независимые камеры: у каждой своя зона зала" width={480} height={270} loading="lazy" />
            <figcaption>
              <strong>Независимые камеры.</strong> Каждая камера видит свою зону; метрики считаются по зонам и складываются.
            </figcaption>
          </figure>
          <figure className="site-figure">
            <img
              src={img('cameras-dependent')}
              alt="Зависимые камеры: зоны обзора пересекаются, посетитель ведётся из кадра в кадр"
              width={480}
              height={270}
              loading="lazy"
            />
            <figcaption>
              <strong>Зависимые камеры.</strong> Зоны обзора пересекаются: посетитель ведётся от камеры к камере, и строится его полный маршрут.
            </figcaption>
          </figure>
        </div>
      </section>
      <p>
        <ContactLink>Обсудить мероприятие</ContactLink>
      </p>
    </SitePage>
  );
}
