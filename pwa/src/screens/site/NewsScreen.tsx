import { Link } from 'wouter';
import { img } from './links';
import { Card, SitePage } from './SitePage';

/** Spec 01 §1 news cards: picture, header, text, date, link. Static text. */
export const NEWS = [
  {
    date: '2023-11-14',
    title: 'Norma работает в закрытом контуре',
    text: 'Платформа ставится на сервер заказчика и работает без выхода в интернет — вместе с проверкой «не робот» и картами.',
    picture: 'news-closed-network',
    href: '/products',
  },
  {
    date: '2023-09-05',
    title: 'Аналитика мероприятий на отраслевой выставке',
    text: 'Тепловая карта и маршруты посетителей по 12 камерам: самые популярные стенды и безопасные зоны вокруг экспонатов.',
    picture: 'news-exhibition',
    href: '/evan',
  },
  {
    date: '2023-06-20',
    title: 'Калькулятор производительности открыт для всех',
    text: 'Оцените число замеров, камер и дней проекта и ожидаемую экономию до первого звонка.',
    picture: 'news-calculator',
    href: '/calculator',
  },
  {
    date: '2023-03-01',
    title: 'Пятидесятая научная публикация команды',
    text: 'Методика проверки устойчивости хронометражных рядов вышла в рецензируемом журнале.',
    picture: 'news-publication',
    href: '/services',
  },
];

const dateFormat = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'long', year: 'numeric' });

export function NewsScreen() {
  return (
    <SitePage testId="page-news" title="Новости" description="Новости Norma: продукты, проекты и публикации команды.">
      <div className="card-grid" data-testid="news-cards">
        {NEWS.map((item) => (
          <Card key={item.title} picture={img(item.picture)} title={item.title}>
            <time dateTime={item.date}>{dateFormat.format(new Date(`${item.date}T12:00:00`))}</time>
            <p>{item.text}</p>
            <Link href={item.href}>Подробнее: {item.title}</Link>
          </Card>
        ))}
      </div>
    </SitePage>
  );
}
