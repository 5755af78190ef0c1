/**
 * /staff/orders and /staff/orders/:orderId: the order list with its filters and CSV export, or one order
 * with its refunds and the confirmation e-mail.
 */
import { useParams } from 'react-router';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { OrderDetail } from './orders/OrderDetail';
import { OrderList } from './orders/OrderList';
import './admin.css';

export default function OrdersPage() {
  const { orderId } = useParams();
  useDocumentTitle(orderId ? 'Order' : 'Orders');
  return orderId ? <OrderDetail orderId={orderId} /> : <OrderList />;
}
