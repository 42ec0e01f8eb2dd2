import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { instance, loadInstance } from '../../state/instance';
import { ExternalLink } from '../../ui/ExternalLink';
import { img } from './links';
import { Card, SitePage } from './SitePage';

/** `site`: which of the installation's outside sites (NORMA_LINK_*); without its address the card has no link. */
type Product = { title: string; text: string; picture: string } & ({ route: string } | { site: 'tracker' | 'formwork' | 'district' });

/** Spec 02 «Marketing pages»: 7 cards; HR, AI, calculator and event analytics inside, the other three on their own sites. */
export const PRODUCTS: Product[] = [
  {
    title: 'HR-аналитика',
    text: 'Автоматизация HR-процессов по видео: загрузка и резервы персонала, +75 % к эффективности HR-специалистов.',
    picture: 'product-hr',
    route: '/hr',
  },
  {
    title: 'AI-аналитика видеопотока',
    text: 'Моментальные снимки производительности по живому видео с камер. Экономия на оптимизации трудовых ресурсов — 15 %.',
    picture: 'product-ai',
    route: '/ai',
  },
  {
    title: 'Калькулятор производительности',
    text: 'Сколько замеров, камер и дней нужно проекту, сколько он стоит и сколько сэкономит.',
    picture: 'product-calculator',
    route: '/calculator',
  },
  {
    title: 'Аналитика мероприятий',
    text: 'Выставки и музеи: тепловая карта посещений, маршруты посетителей и метрики стендов.',
    picture: 'product-evan',
    route: '/evan',
  },
  { title: 'Трекер задач', text: 'Постановка и контроль задач команды: до 80 % экономии времени.', picture: 'product-tracker', site: 'tracker' },
  {
    title: 'Плагин проектирования опалубки',
    text: 'Раскладка опалубки в модели здания: проектирование на 30 % быстрее.',
    picture: 'product-formwork',
    site: 'formwork',
  },
  {
    title: 'Проектирование микрорайонов',
    text: 'Дороги, участки и зоны микрорайона с расчётом вариантов застройки.',
    picture: 'product-district',
    site: 'district',
  },
];

export function ProductsScreen() {
  const { links } = useSnapshot(instance);
  useEffect(() => void loadInstance(), []);
  return (
    <SitePage
      testId="page-products"
      title="Продукты"
      description="Продукты Norma: HR-аналитика, AI-аналитика видеопотока, калькулятор производительности, аналитика мероприятий, трекер задач и инструменты проектирования."
      lead="Семь продуктов, выросших из измерения труда по видео."
    >
      <div className="card-grid" data-testid="product-cards">
        {PRODUCTS.map((product) => (
          <Card key={product.title} picture={img(product.picture)} title={product.title}>
            <p>{product.text}</p>
            {'route' in product ? (
              <Link href={product.route} className="button" aria-label={`Перейти: ${product.title}`}>
                Перейти
              </Link>
            ) : (
              links[product.site] && (
                <ExternalLink href={links[product.site]!} className="button" label={`Перейти: ${product.title} (откроется в новой вкладке)`}>
                  Перейти
                </ExternalLink>
              )
            )}
          </Card>
        ))}
      </div>
    </SitePage>
  );
}
